import { z } from "zod";
import type { Actor } from "@/lib/actor";
import type { Executor } from "@/lib/db/client";
import { takeTurn } from "@/lib/db/turn-lock";
import { sources } from "@/lib/db/schema/events";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { hookToken, hookTokenHash } from "@/lib/sources/hook-token";
import { projectAddress } from "@/lib/mail/project-address";
import { assertSecretUsable, checkSourceFields, sourceExtras, sourceFields } from "@/lib/sources/source-input";
import { findActiveSources } from "@/lib/sources/find-source";
import { sourceView } from "@/lib/sources/source-view";

export const addSourceInput = z
  .object({ ...sourceFields, ...sourceExtras })
  .strict()
  .superRefine(checkSourceFields);
export type AddSourceInput = z.infer<typeof addSourceInput>;

/**
 * Live sources a project may have. An agent's source_add made one per call with no bound, and each is listed whole by
 * source_list, GET /owner/sources and the Sources screen (and read whole by every add after it).
 */
export const MAX_SOURCES_PER_PROJECT = 100;

/** The secret is encrypted at rest and never returned; the URL token is derived from the new id. */
export async function addSource(tx: Executor, opts: { actor: Actor } & AddSourceInput) {
  const { actor } = opts;
  assertSecretUsable(opts.secret);
  // "One email source a project" has no unique index behind it (names do): without this lock, concurrent adds all
  // found none and each made an email source on the project address.
  await takeTurn(tx, `sources:${actor.projectId}`);
  const existing = await findActiveSources(tx, actor.projectId);
  if (existing.some((s) => s.name === opts.name)) {
    throw new AppError("CONFLICT", `A source named ${opts.name} exists already.`, {
      fix: "Choose another name, or remove the existing source first (source_remove).",
      details: { field: "name" },
    });
  }
  if (existing.length >= MAX_SOURCES_PER_PROJECT) {
    throw new AppError("QUOTA_EXCEEDED", `A project may have at most ${MAX_SOURCES_PER_PROJECT} sources; this one has ${existing.length}.`, {
      fix: "Remove a source you no longer need (source_remove), or send several kinds of event through one source.",
    });
  }
  const email = existing.find((s) => s.type === "email");
  if (opts.type === "email" && email) {
    throw new AppError("CONFLICT", `The project address already feeds the source ${email.name}.`, {
      fix: "A project has one email source; use it, or remove it first.",
    });
  }
  const id = newId("src");
  const webhook = opts.type === "webhook";
  // The email source's address is the project's default mailbox (ARCHITECTURE §6).
  const address = webhook ? null : await projectAddress(tx, actor.projectId);
  const [row] = await tx
    .insert(sources)
    .values({
      id,
      projectId: actor.projectId,
      name: opts.name,
      type: opts.type,
      verification: webhook ? (opts.verification ?? "none") : "none",
      secretEnc: webhook && opts.secret ? encryptSecret(opts.secret, secretSlot(sources.secretEnc, id)) : null,
      signatureHeader: webhook ? (opts.signature_header ?? null) : null,
      idHeader: webhook ? (opts.id_header ?? null) : null,
      typeField: webhook ? (opts.type_field ?? null) : null,
      tokenHash: webhook ? hookTokenHash(hookToken(id)) : null,
      address,
      createdBy: actor.id,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    // A concurrent add of the same name won the unique index.
    throw new AppError("CONFLICT", `A source named ${opts.name} exists already.`, { fix: "Choose another name.", details: { field: "name" } });
  }
  return sourceView(row);
}
