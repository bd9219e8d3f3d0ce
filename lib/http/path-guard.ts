import { AppError } from "@/lib/errors";
import { API_PREFIX } from "@/lib/tools/adapters/rest";

/**
 * What is wrong with a request's raw path (no query), or null: checked once for every request before any routing,
 * the table's and Next's alike (fast-path.ts runs first in server.ts). A malformed `%` escape would otherwise throw
 * in whichever handler decodes it; a `.` or `..` segment, `%2e` spellings included, would be resolved by URL
 * parsing after routing chose a handler (`/api/v1/files/a/../../kv/x` reaching kv_get). An escaped slash (`%2F`)
 * does not separate segments, so `..%2Fx` is one segment for the route's own rules to judge (disk paths refuse it).
 * Under /api/v1 a malformed escape is left to REST, which names the parameter it spoils (validation_error, as MCP
 * answers the same value).
 */
export function requestPathProblem(path: string): AppError | null {
  if (!path.includes("%") && !path.includes(".")) return null;
  const restDecodes = path.startsWith(`${API_PREFIX}/`);
  for (const segment of path.split("/")) {
    let decoded = segment;
    if (segment.includes("%")) {
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        if (restDecodes) continue;
        return new AppError("bad_request", "The path has a malformed % escape.", {
          fix: "Percent-encode the path as UTF-8 (encodeURIComponent per segment).",
        });
      }
    }
    if (decoded === "." || decoded === "..") {
      return new AppError("bad_request", `The path has a . or .. segment (${JSON.stringify(segment)}); dot segments are refused.`, {
        fix: "Send the path without . and .. segments; to name a file or key that is one, percent-encode its slashes too.",
      });
    }
  }
  return null;
}
