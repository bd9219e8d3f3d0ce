import type { Actor } from "@/lib/actor";
import type { Db } from "@/lib/db/client";
import { askPerson } from "@/lib/approvals/ask-person";

/** ask_human: a question always goes to a person; the policy decides actions, not answers. */
export function askHuman(
  db: Db,
  opts: {
    actor: Actor;
    signal?: AbortSignal;
    question: string;
    options?: string[];
    waitSeconds: number;
    expiresInMs: number;
    approvers?: string[];
    stateRef?: string;
    callbackUrl?: string;
  },
) {
  return askPerson(db, {
    actor: opts.actor,
    waitSeconds: opts.waitSeconds,
    signal: opts.signal,
    build: async () => ({
      kind: "question",
      action: null,
      summary: opts.question,
      options: opts.options ?? [],
      expiresInMs: opts.expiresInMs,
      approvers: opts.approvers,
      stateRef: opts.stateRef ?? null,
      callbackUrl: opts.callbackUrl ?? null,
    }),
  });
}
