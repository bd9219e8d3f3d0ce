/** "sha256:3f2a…" → "3f2a9c10"; full values are on the entry page. */
export const shortDigest = (d: string | null) => (d ? d.replace(/^sha256:/, "").slice(0, 8) : null);

/** Subjects are ids such as `key_3kX9…`; keep the prefix and enough to recognise them. */
export const shortSubject = (s: string | null, max = 22) => (s && s.length > max ? `${s.slice(0, max - 1)}…` : s);
