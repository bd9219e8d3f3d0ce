import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/json-response";
import { revealInvisible } from "@/lib/text/reveal-invisible";

/** Errors of the blob routes: never cached. */
export const blobErrorResponse = (err: unknown, extra: Record<string, string> = {}): Response => errorResponse(err, { "cache-control": "no-store", ...extra });

export const gone = (what: string) =>
  new AppError("NOT_FOUND", `${what} has expired, was revoked, or its file was replaced or deleted.`, {
    fix: "Ask for a new link (file_url) or download URL (file_get).",
  });

/**
 * RFC 6266 / 5987: an ASCII fallback plus the UTF-8 name, its invisible characters written out as the dashboard
 * shows them (revealInvisible): a browser or mail client that keeps a right-to-left override in the saved name
 * would show `invoice<U+202E>fdp.exe` as `invoiceexe.pdf`.
 */
function disposition(stored: string): string {
  const name = revealInvisible(stored);
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_") || "download";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * Headers for every file Brynth serves: always an attachment, never sniffed, and sandboxed by CSP, so an uploaded
 * HTML or SVG file cannot run script in Brynth's origin even if a browser were to render it.
 */
export function fileHeaders(f: { name: string; contentType: string; sizeBytes: number }): Record<string, string> {
  return {
    "content-type": f.contentType,
    "content-length": String(f.sizeBytes),
    "content-disposition": disposition(f.name),
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'; sandbox",
    "cross-origin-resource-policy": "cross-origin",
    "referrer-policy": "no-referrer",
    "cache-control": "private, no-store",
  };
}
