import { z } from "zod";
import type { LedgerEntry } from "@/lib/db/schema/ledger";

export const entryShape = z.object({
  seq: z.number().int(),
  ts: z.string(),
  op: z.string(),
  actor_type: z.string(),
  actor_id: z.string().nullable(),
  key_id: z.string().nullable(),
  agent: z.string().nullable(),
  platform: z.string().nullable(),
  via: z.string(),
  subject: z.string().nullable(),
  input_digest: z.string().nullable(),
  output_digest: z.string().nullable(),
  prev_hash: z.string(),
  hash: z.string(),
});

export const entryView = (e: LedgerEntry): z.infer<typeof entryShape> => ({
  seq: Number(e.seq),
  ts: e.ts.toISOString(),
  op: e.op,
  actor_type: e.actorType,
  actor_id: e.actorId,
  key_id: e.keyId,
  agent: e.agent,
  platform: e.platform,
  via: e.via,
  subject: e.subject,
  input_digest: e.inputDigest,
  output_digest: e.outputDigest,
  prev_hash: e.prevHash ?? "",
  hash: e.hash ?? "",
});
