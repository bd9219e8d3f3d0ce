/**
 * What keeps a receiver from verifying Brynth's signatures with the TXT records found at the domain's DKIM selector,
 * or null when they will. The check matched `p=<key>` anywhere after removing spaces and lower-casing: a lower-cased
 * key (base64 is case-sensitive), a record declaring another key type, or an old record left beside the new one
 * (RFC 6376 §3.6.2.2 leaves several records undefined) verified the domain while every receiver failed its mail
 * (found by helper-111). The tags are read as a verifier reads them.
 */
export function dkimRecordProblem(records: readonly string[], publicKey: string): string | null {
  if (records.length > 1) return `${records.length} TXT records at the selector: receivers may read any of them; keep only Brynth's`;
  const [record] = records;
  if (record === undefined) return "no record";
  const tags = new Map<string, string>();
  for (const part of record.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ""));
  }
  const v = tags.get("v");
  if (v !== undefined && v !== "DKIM1") return `v=${v}: a DKIM key record says v=DKIM1`;
  const k = tags.get("k");
  if (k !== undefined && k.toLowerCase() !== "rsa") return `k=${k}: Brynth's key is RSA (k=rsa)`;
  if (tags.get("p") !== publicKey.replace(/\s+/g, "")) return "the published key is not Brynth's";
  return null;
}
