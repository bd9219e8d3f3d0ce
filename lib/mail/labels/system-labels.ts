/**
 * Labels (design §1.8 E3). System labels say what the mail store knows about a message; agents may set only their
 * own labels and `unread`, the one system label that is theirs to change. `trash` comes from delete_thread.
 */
export const SYSTEM_LABELS = [
  "received",
  "sent",
  "delivered",
  "bounced",
  "complained",
  "rejected",
  "unread",
  "spam",
  "blocked",
  "unauthenticated",
  "trash",
  "scheduled",
  "pending_approval",
] as const;

export const MUTABLE_SYSTEM_LABELS: readonly string[] = ["unread"];

const system: ReadonlySet<string> = new Set(SYSTEM_LABELS);

/** A system label an agent may not add or remove by hand. */
export const isProtectedLabel = (label: string) => system.has(label) && !MUTABLE_SYSTEM_LABELS.includes(label);

/**
 * Lower case, starting with a letter or digit, at most 64 characters. A label outside it (`"UNREAD "`) is refused,
 * never normalised: a silently rewritten label would not be the one the agent filters by later.
 */
export const LABEL_PATTERN = /^[a-z0-9][a-z0-9._:/-]{0,63}$/;

/** At most this many labels in each of addLabels and removeLabels. */
export const MAX_LABELS_PER_CALL = 20;
