import { z } from "zod";

export const listDirections = ["receive", "reply", "send"] as const;
export type ListDirectionView = (typeof listDirections)[number];

/** One line each: what a direction's lists match (design L1). */
export const directionMeaning: Record<ListDirectionView, string> = {
  receive: "Senders of new mail to the mailbox.",
  reply: "Senders of replies to threads the mailbox has answered.",
  send: "Recipients of mail your agents send.",
};

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => v || undefined);

/** The Lists screen's URL: whose lists (`global` or a mailbox id), which direction, and each list's page token. */
export const listsSearch = z.object({
  scope: text(64).transform((v) => v ?? "global"),
  direction: z.enum(listDirections).default("receive"),
  allow: text(600),
  block: text(600),
});

export function listsHref(raw: Record<string, string | undefined>, changes: Record<string, string | undefined> = {}) {
  const q = new URLSearchParams();
  for (const key of ["scope", "direction", "allow", "block"]) {
    const value = key in changes ? changes[key] : raw[key];
    if (value && !(key === "scope" && value === "global") && !(key === "direction" && value === "receive")) q.set(key, value);
  }
  return q.size ? `/mail/lists?${q}` : "/mail/lists";
}
