/**
 * Who decided or changed something, as a person reads it: the stored form (`owner:<email>`, `channel:<label>`,
 * `policy:<rule>`, `system`) is for machines and the ledger; screens show the name.
 */
export function principalName(who: string | null | undefined): string {
  if (!who) return "—";
  const at = who.indexOf(":");
  const kind = at > 0 ? who.slice(0, at) : who;
  const rest = at > 0 ? who.slice(at + 1) : "";
  if (kind === "owner") return rest || "The owner";
  if (kind === "channel") return rest ? `${rest} (channel)` : "A channel";
  if (kind === "policy") return rest ? `Policy rule ${rest}` : "The policy";
  if (kind === "system") return "Brynth";
  return who;
}
