/**
 * Redirect URIs a client may register (design D12, OAuth 2.1 §2.3.1, RFC 8252 §7.3): https anywhere, or plain http
 * only to a loopback host, where a native client listens. No fragment (RFC 6749 §3.1.2) and no userinfo, which would
 * let `https://trusted@evil` read as a trusted name. Matching at /authorize is exact, string for string, but for
 * the port of a loopback IP (redirectUriMatches).
 */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL.`;
  }
  if (url.hash || uri.includes("#")) return `${uri} has a fragment; redirect URIs may not.`;
  if (url.username || url.password) return `${uri} carries credentials; redirect URIs may not.`;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${uri} must use https, or http on a loopback host (127.0.0.1, [::1], localhost).`;
}

/**
 * Whether a redirect URI asked for at /authorize is one the client registered: the same string, or — for http on a
 * loopback IP literal — the same URI on another port. RFC 8252 §7.3 (and OAuth 2.1 §8.4.2): the server MUST allow
 * any port there, since a native client listens on whatever ephemeral port the system gives it at that moment.
 * `localhost` is matched exactly: a name, which RFC 8252 §8.3 advises against, not the loopback interface itself.
 */
export function redirectUriMatches(registered: readonly string[], asked: string): boolean {
  if (registered.includes(asked)) return true;
  const portless = (uri: string) => {
    let url: URL;
    try {
      url = new URL(uri);
    } catch {
      return null;
    }
    if (url.protocol !== "http:" || (url.hostname !== "127.0.0.1" && url.hostname !== "[::1]")) return null;
    if (url.hash || url.username || url.password) return null;
    url.port = "";
    return url.href;
  };
  const wanted = portless(asked);
  return wanted !== null && registered.some((r) => portless(r) === wanted);
}
