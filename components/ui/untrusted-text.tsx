import { revealInvisible } from "@/lib/text/reveal-invisible";

/**
 * A name an agent or a stranger chose (file, sender, subject, agent label) inside the dashboard's own words. `<bdi>`
 * keeps its direction from reordering the text around it ("Delete file “…”?", "Asked by … with key …"), and its
 * invisible characters are written out (revealInvisible), so `invoice<U+202E>fdp.exe` never shows as `invoiceexe.pdf`.
 */
export function UntrustedText({ text, className }: { text: string; className?: string }) {
  return <bdi className={className}>{revealInvisible(text)}</bdi>;
}

/** Several such names (senders, recipients), comma-separated, each isolated from the next; `empty` when none. */
export function UntrustedList({ items, empty }: { items: string[]; empty: string }) {
  if (items.length === 0) return empty;
  return items.map((item, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the same address may repeat; position is its identity here
    <span key={i}>
      {i > 0 && ", "}
      <UntrustedText text={item} />
    </span>
  ));
}
