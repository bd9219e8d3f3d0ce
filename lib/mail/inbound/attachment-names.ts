import { safeAttachmentName } from "@/lib/disk/save-attachment";

/**
 * Safe, unique names for one message's attachments (`evt_…/name` must name exactly one): the disk module's rules
 * (one path segment, no `..`, no control characters), then `name (2).ext` for repeats.
 */
export function attachmentNames(raw: Array<string | null>): string[] {
  const seen = new Set<string>();
  return raw.map((r) => {
    const base = safeAttachmentName(r);
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) {
      const dot = base.lastIndexOf(".");
      name = dot > 0 ? `${base.slice(0, dot)} (${n})${base.slice(dot)}` : `${base} (${n})`;
    }
    seen.add(name.toLowerCase());
    return name;
  });
}
