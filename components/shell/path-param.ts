import { notFound } from "next/navigation";
import { unstorableText } from "@/lib/db/storable";

/**
 * A page's dynamic path segment as it names a row: decoded once more (the pages were given it still encoded), or
 * the page's 404 when it can name nothing: malformed percent-encoding (decodeURIComponent throws) or text
 * PostgreSQL cannot hold (a NUL, a lone surrogate), which failed the page's query as a 500.
 */
export function pathParam(raw: string): string {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    notFound();
  }
  if (unstorableText(text) !== null) notFound();
  return text;
}
