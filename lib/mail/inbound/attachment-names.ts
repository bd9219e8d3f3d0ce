import { fitAttachmentName, safeAttachmentName, splitExtension } from "@/lib/disk/save-attachment";

/**
 * Safe, unique names for one message's attachments (`evt_…/name` must name exactly one): in Unicode NFC, as every
 * other file's path is (a name macOS mail decomposed, `résumé.pdf` in NFD, could not be fetched by the name an agent
 * types, and two spellings of one name looked like one file listed twice), the disk module's rules (one path
 * segment, no `..`, no control or bidi characters, 255 bytes), then `name (2).ext` for repeats, whose stem gives way
 * when the suffix would not fit.
 */
export function attachmentNames(raw: Array<string | null>): string[] {
  const seen = new Set<string>();
  return raw.map((r) => {
    const base = safeAttachmentName(r?.normalize("NFC") ?? null);
    const [stem, extension] = splitExtension(base);
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = fitAttachmentName(stem, ` (${n})`, extension);
    seen.add(name.toLowerCase());
    return name;
  });
}
