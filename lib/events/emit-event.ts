import type { Executor } from "@/lib/db/client";
import type { Trust } from "@/lib/db/schema/events";
import { insertEvent } from "@/lib/events/insert-event";

/** The source name of events Brynth writes itself; no user source may take it. */
export const BRYNTH_SOURCE = "brynth";

export interface EmitEventOptions {
  /** Chosen by a caller that needs it before the INSERT returns; new otherwise. */
  id?: string;
  projectId: string;
  /** Default `brynth`. The mail module passes its email source's name for `email.*` events. */
  source?: string;
  /** e.g. `request.resolved`, `email.received`. */
  type: string;
  payload: unknown;
  /** Default `brynth`; content that came from outside (mail) is `external_untrusted`. */
  trust?: Trust;
  /** Makes the emit idempotent: a second emit with the same key returns the first event. */
  dedupeKey?: string;
  sourceId?: string | null;
}

/**
 * Puts an event into the project's inbox from inside Brynth (approvals: `request.resolved`; mail:
 * `email.received`), in the caller's transaction: the event exists exactly when the caller's change commits.
 */
export async function emitEvent(tx: Executor, opts: EmitEventOptions): Promise<{ id: string; duplicate: boolean }> {
  const json = JSON.stringify(opts.payload ?? null);
  const { id, duplicate } = await insertEvent(tx, {
    id: opts.id,
    projectId: opts.projectId,
    sourceId: opts.sourceId ?? null,
    source: opts.source ?? BRYNTH_SOURCE,
    type: opts.type,
    trust: opts.trust ?? "brynth",
    body: { json },
    contentType: "application/json",
    payloadSize: Buffer.byteLength(json),
    headers: {},
    dedupeKey: opts.dedupeKey ?? null,
  });
  return { id, duplicate };
}
