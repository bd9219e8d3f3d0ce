/**
 * How to connect an agent, shown on the overview and once after a key is created. One place for the text so both
 * stay the same; `key` is the real secret right after creation, else a placeholder.
 */
export function connectSnippets(publicUrl: string, key = "<your key>") {
  const mcpUrl = `${publicUrl}/mcp`;
  return {
    claude: `claude mcp add --transport http brynth ${mcpUrl} --header "Authorization: Bearer ${key}"`,
    curl: `curl -s ${publicUrl}/api/v1/whoami \\\n  -H "Authorization: Bearer ${key}"`,
    json: JSON.stringify({ mcpServers: { brynth: { type: "http", url: mcpUrl, headers: { Authorization: `Bearer ${key}` } } } }, null, 2),
  };
}
