"use server";

import { z } from "zod";
import { ownerAction } from "@/lib/auth/owner-action";
import { AppError } from "@/lib/errors";
import { completeUpload } from "@/lib/disk/complete-upload";
import { createLink } from "@/lib/disk/create-link";
import { deleteFile } from "@/lib/disk/delete-file";
import { deleteKey } from "@/lib/disk/delete-key";
import { parseValueText } from "@/lib/disk/value-text";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { revokeFileLinkRoute } from "@/lib/owner-api/file-links";
import { findSource } from "@/lib/disk/find-source";
import { sourceDownloadUrl } from "@/lib/disk/get-file";
import { LINK_MAX_SECONDS, LINK_MIN_SECONDS, TTL_MAX_SECONDS, UPLOAD_MAX_BYTES } from "@/lib/disk/limits";
import { pathText } from "@/lib/disk/path-rules";
import { revokeLink } from "@/lib/disk/revoke-link";
import { setKey } from "@/lib/disk/set-key";
import { startUpload } from "@/lib/disk/start-upload";
import { ifVersionField } from "@/lib/tools/disk/disk-fields";
import { toolOpOf } from "@/lib/tools/registry";

/**
 * Disk changes from the dashboard. The domain functions are the tools' own, and each action is ledgered under its
 * tool's op. URLs go back as paths: the browser uses this origin
 * whatever PUBLIC_URL says.
 */
const text = (max: number) => z.string().max(max);
const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** New key (if_version 0) over an existing one: the Key field says so, rather than the agents' version wording. */
function takenKey(err: unknown, key: string): unknown {
  const current = err instanceof AppError && err.code === "CONFLICT" ? (err.details as { current_version?: number } | undefined)?.current_version : 0;
  if (!current) return err;
  const message = `A key named ${key} exists already. Open it to change its value.`;
  return new AppError("CONFLICT", message, { details: { field: "key", message } });
}

export const saveKeyAction = ownerAction(
  z.object({
    key: text(600),
    valueJson: text(400_000),
    ttlSeconds: z.number().int().min(1).max(TTL_MAX_SECONDS).optional(),
    // kv_set's own field: versions are a Postgres integer, and a larger one failed the save's query.
    ifVersion: ifVersionField,
  }),
  async (ctx, input) => {
    const value = parseValueText(input.valueJson);
    ctx.subject = input.key;
    return setKey(ctx.db, { actor: ctx.actor, key: input.key, value, ttlSeconds: input.ttlSeconds, ifVersion: input.ifVersion }).catch((err) => {
      throw input.ifVersion === 0 ? takenKey(err, input.key) : err;
    });
  },
  { op: toolOpOf("kv_set") },
);

/** Deletes the value the screen showed (`ifVersion`): a newer one is CONFLICT, as Save is. */
export const deleteKeyAction = ownerAction(
  z.object({ key: text(600), ifVersion: ifVersionField.unwrap() }),
  async (ctx, input) => {
    ctx.subject = input.key;
    return deleteKey(ctx.db, { actor: ctx.actor, key: input.key, ifVersion: input.ifVersion });
  },
  { op: toolOpOf("kv_delete") },
);

export const startUploadAction = ownerAction(
  z.object({ path: pathText(), size: z.number().int().min(0).max(UPLOAD_MAX_BYTES), contentType: text(255).optional() }),
  async (ctx, input) => {
    // Empty types (unknown extensions) fall back to application/octet-stream.
    const out = await startUpload(ctx.db, { actor: ctx.actor, path: input.path, size: input.size, contentType: input.contentType || undefined, via: "brynth" });
    ctx.subject = out.upload_id;
    return { uploadId: out.upload_id, url: pathOf(out.upload_url), headers: out.upload_headers };
  },
  { op: toolOpOf("file_put") },
);

export const completeUploadAction = ownerAction(
  z.object({ path: pathText(), uploadId: text(100) }),
  async (ctx, input) => {
    ctx.subject = input.path;
    return completeUpload(ctx.db, { actor: ctx.actor, path: input.path, uploadId: input.uploadId });
  },
  { op: toolOpOf("file_put") },
);

export const deleteFileAction = ownerAction(
  z.object({ path: pathText() }),
  async (ctx, input) => {
    const { deleted, file } = await deleteFile(ctx.db, { actor: ctx.actor, path: input.path });
    ctx.subject = file?.id ?? input.path;
    return { deleted };
  },
  { op: toolOpOf("file_delete") },
);

export const createLinkAction = ownerAction(
  z.object({ path: pathText(), expiresIn: z.number().int().min(LINK_MIN_SECONDS).max(LINK_MAX_SECONDS) }),
  async (ctx, input) => {
    const out = await createLink(ctx.db, { actor: ctx.actor, path: input.path, expiresIn: input.expiresIn });
    ctx.subject = out.link_id;
    return out;
  },
  { op: toolOpOf("file_url") },
);

export const revokeLinkAction = ownerAction(
  z.object({ linkId: text(100) }),
  async (ctx, input) => {
    ctx.subject = input.linkId;
    return revokeLink(ctx.db, { actor: ctx.actor, linkId: input.linkId });
  },
  { op: routeOp(revokeFileLinkRoute) },
);

/** A 5-minute download URL for the browser; reading changes nothing, so nothing is ledgered. */
export const downloadUrlAction = ownerAction(z.object({ path: pathText() }), async (ctx, input) => {
  const src = await findSource(ctx.db, { projectId: ctx.actor.projectId, path: input.path });
  return { url: pathOf(sourceDownloadUrl(ctx.actor.projectId, src).download_url) };
});
