import { tools } from "@/lib/tools/registry";
import { keyMayUse, onTransport, UNTRUSTED_META } from "@/lib/tools/define-tool";
import { toolSchemas } from "@/lib/tools/json-schema";

const cache = new Map<string, unknown[]>();

/** tools/list for a key: only the tools its scopes allow. Built once per distinct scope set. */
export function mcpToolList(scopes: readonly string[]): unknown[] {
  const cacheKey = [...scopes].sort().join(" ");
  let list = cache.get(cacheKey);
  if (!list) {
    list = tools
      .filter((t) => onTransport(t, "mcp") && keyMayUse(t, scopes))
      .map((t) => {
        const { input, output } = toolSchemas(t);
        return {
          name: t.name,
          title: t.annotations.title,
          description: t.description,
          inputSchema: input,
          outputSchema: output,
          annotations: t.annotations,
          ...(t.untrusted ? { _meta: UNTRUSTED_META } : {}),
        };
      });
    cache.set(cacheKey, list);
  }
  return list;
}
