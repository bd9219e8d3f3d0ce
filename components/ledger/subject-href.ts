/**
 * Where a ledger subject lives in the dashboard, so the Ledger links each entry to the object it touched. Subjects
 * are ids (their prefix names the kind) or, for the disk tools, the key, task id or path the agent passed — the op
 * says which. Null when Brynth has no screen for it (an upload id, a session): the subject is then plain text.
 */
export function subjectHref(op: string, subject: string | null): string | null {
  if (!subject) return null;
  const id = /^[a-z]{2,4}_[A-Za-z0-9]{4,60}$/.test(subject) ? subject : null;
  const enc = encodeURIComponent;
  if (id?.startsWith("req_")) return `/approvals/${id}`;
  if (id?.startsWith("evt_")) return `/events/${id}`;
  // Message ids open the Outbound detail, which sends an inbound message on to its thread.
  if (id?.startsWith("msg_")) return `/mail/outbound/${id}`;
  if (id?.startsWith("drf_")) return `/mail/drafts?tab=all&draft=${id}`;
  if (id?.startsWith("key_")) return `/api-keys?revoked=1#${id}`;
  if (id?.startsWith("whk_")) return `/mail/webhooks?webhook=${id}`;
  if (id?.startsWith("src_")) return "/sources";
  if (id?.startsWith("chn_")) return "/channels";
  if (id?.startsWith("lnk_")) return "/disk?tab=links";
  if (id?.startsWith("mbx_")) return `/mail/${id}`;
  const family = op.split(".")[0];
  if (family === "kv") return `/disk?tab=keys&key=${enc(subject)}`;
  if (family === "state") return `/disk?tab=states&key=${enc(subject)}`;
  if (family === "file" && !id) {
    // A path: open the folder that holds it.
    const dir = subject.replace(/^\/+/, "").split("/").slice(0, -1).join("/");
    return dir ? `/disk?tab=files&dir=${enc(`${dir}/`)}` : "/disk?tab=files";
  }
  return null;
}
