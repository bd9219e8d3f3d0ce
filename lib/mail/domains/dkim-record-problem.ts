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
  for (const [i, part] of record.split(";").entries()) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    // RFC 6376 §3.2: a tag given twice makes the whole list invalid; §3.6.1: v=, when given, comes first.
    if (tags.has(name)) return `${name}= is given twice: receivers refuse the record`;
    if (name === "v" && i > 0) return "v=DKIM1 must be the record's first tag";
    tags.set(name, part.slice(eq + 1).replace(/\s+/g, ""));
  }
  const v = tags.get("v");
  if (v !== undefined && v !== "DKIM1") return `v=${v}: a DKIM key record says v=DKIM1`;
  const k = tags.get("k");
  if (k !== undefined && k.toLowerCase() !== "rsa") return `k=${k}: Brynth's key is RSA (k=rsa)`;
  // §3.6.1: h= lists the hashes the key may sign with (Brynth signs rsa-sha256), s= the services it is for.
  const h = tags.get("h");
  if (h !== undefined && !h.toLowerCase().split(":").includes("sha256")) return `h=${h}: Brynth signs with sha256`;
  const service = tags.get("s");
  if (
    service !== undefined &&
    !service
      .toLowerCase()
      .split(":")
      .some((x) => x === "*" || x === "email")
  )
    return `s=${service}: the key must be for email`;
  if (tags.get("p") !== publicKey.replace(/\s+/g, "")) return "the published key is not Brynth's";
  return null;
}
