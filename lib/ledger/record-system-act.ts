import { systemActor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { appendEntry } from "@/lib/ledger/append-entry";

export interface SystemAct {
  projectId: string;
  op: string;
  subject: string;
  /** Who in the system acted, when more precise than `brynth` (a policy rule: `policy:<rule>`). */
  agent?: string | null;
  input?: unknown;
  output?: unknown;
}

/**
 * The system's own acts — a policy deciding a request, a request expiring, a message delivered or bounced, mail
 * received — have no caller and so no call pipeline: they are recorded where they happen, as the system. This is
 * the only way domain code writes an entry (lib/ledger/README.md); a caller's act is always its pipeline's entry.
 */
export function recordSystemAct(tx: Executor, act: SystemAct): Promise<void> {
  const actor = act.agent ? { ...systemActor(act.projectId), agent: act.agent } : systemActor(act.projectId);
  return appendEntry(tx, { actor, op: act.op, subject: act.subject, input: act.input, output: act.output });
}
