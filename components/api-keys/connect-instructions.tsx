import { CodeBlock } from "@/components/ui/code-block";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { connectSnippets } from "@/components/api-keys/connect-snippets";

/** Claude Code, curl and a generic MCP client config for one key (or a placeholder). */
export function ConnectInstructions({ publicUrl, secret }: { publicUrl: string; secret?: string }) {
  const s = connectSnippets(publicUrl, secret);
  return (
    <Tabs defaultValue="claude" className="min-w-0">
      <TabsList>
        <TabsTrigger value="claude">Claude Code</TabsTrigger>
        <TabsTrigger value="curl">curl</TabsTrigger>
        <TabsTrigger value="json">MCP config</TabsTrigger>
      </TabsList>
      <TabsContent value="claude" className="space-y-2">
        <p className="text-xs text-muted-foreground">Add Brynth as an MCP server over streamable HTTP:</p>
        <CodeBlock code={s.claude} language="bash" copyLabel="Copy command" />
      </TabsContent>
      <TabsContent value="curl" className="space-y-2">
        <p className="text-xs text-muted-foreground">Check the key over REST:</p>
        <CodeBlock code={s.curl} language="bash" copyLabel="Copy command" />
      </TabsContent>
      <TabsContent value="json" className="space-y-2">
        <p className="text-xs text-muted-foreground">For any MCP client that reads a JSON server list:</p>
        <CodeBlock code={s.json} language="json" copyLabel="Copy config" />
      </TabsContent>
    </Tabs>
  );
}
