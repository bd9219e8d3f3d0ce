import { bigint, customType, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";
import { projects } from "./projects";

/** Keys and paths compare byte by byte (the spec's "byte order"), whatever the database's locale. */
const byteText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * Key-value entries, task states included (`state/{task_id}`). The value is kept as the JSON text the agent sent,
 * not jsonb, so `kv_get` returns it exactly as saved (jsonb reorders keys and rewrites numbers).
 */
export const kvEntries = pgTable(
  "kv_entries",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    key: byteText("key").notNull(),
    value: text("value").notNull(),
    /** Bytes of `value` as UTF-8: what the 1 GB quota counts. */
    sizeBytes: integer("size_bytes").notNull(),
    /** Starts at 1 (above kv_version_floor), +1 on every write: `if_version` / ETag compare against it. */
    version: integer("version").notNull(),
    /** One-line summary, task states only. */
    note: text("note"),
    /** Null: never expires. An expired row reads as absent until the janitor deletes it. */
    expiresAt: ts("expires_at"),
    ...timestamps,
  },
  (t) => [primaryKey({ columns: [t.projectId, t.key] }), index("kv_entries_expires_idx").on(t.expiresAt)],
);
export type KvEntry = typeof kvEntries.$inferSelect;

/**
 * Files. A write never changes a row: it inserts a new id with a new blob, so a link or download URL bound to the
 * old id can never serve the new bytes.
 */
export const diskFiles = pgTable(
  "disk_files",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    path: byteText("path").notNull(),
    /** Object key in the blob store, derived from ids only (never from the path). */
    blobKey: text("blob_key").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    contentType: text("content_type").notNull(),
    /** The key that wrote it; null for the dashboard. */
    keyId: text("key_id"),
    ...timestamps,
  },
  (t) => [uniqueIndex("disk_files_path_idx").on(t.projectId, t.path)],
);
export type DiskFile = typeof diskFiles.$inferSelect;

/** Presigned uploads not yet completed. Expired rows (and their objects) are removed by the janitor. */
export const diskUploads = pgTable(
  "disk_uploads",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    path: byteText("path").notNull(),
    blobKey: text("blob_key").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    contentType: text("content_type").notNull(),
    keyId: text("key_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("disk_uploads_path_idx").on(t.projectId, t.path), index("disk_uploads_expires_idx").on(t.expiresAt)],
);
export type DiskUpload = typeof diskUploads.$inferSelect;

/** Public links (`file_url`). Bound to one file id or attachment and its blob; revoked rather than deleted. */
export const diskLinks = pgTable(
  "disk_links",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The file version linked; null for an inbound attachment. */
    fileId: text("file_id"),
    /** `evt_…` id and name for an inbound attachment. */
    eventId: text("event_id"),
    attachmentName: text("attachment_name"),
    path: text("path").notNull(),
    blobKey: text("blob_key").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    contentType: text("content_type").notNull(),
    /** The key that asked: revoking it revokes the link. Null when the owner made the link. */
    keyId: text("key_id"),
    expiresAt: ts("expires_at").notNull(),
    revokedAt: ts("revoked_at"),
    downloads: integer("downloads").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("disk_links_project_idx").on(t.projectId, t.createdAt), index("disk_links_file_idx").on(t.fileId)],
);
export type DiskLink = typeof diskLinks.$inferSelect;

/** Inbound email attachments, written by the mail engine, read as `evt_…/name`. */
export const diskAttachments = pgTable(
  "disk_attachments",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    name: text("name").notNull(),
    blobKey: text("blob_key").notNull(),
    sizeBytes: bigint("size_bytes", { mode: "number" }).notNull(),
    contentType: text("content_type").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.eventId, t.name] })],
);
export type DiskAttachment = typeof diskAttachments.$inferSelect;

/**
 * Per-project usage, updated in the same transaction as every write with a guarded UPDATE, so concurrent writers
 * can never push a project past its quota.
 */
export const diskUsage = pgTable("disk_usage", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  keys: integer("keys").notNull().default(0),
  /** KV values plus files. */
  bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  /** `YYYY-MM` (UTC) that `download_bytes` counts. */
  downloadMonth: text("download_month").notNull().default(""),
  downloadBytes: bigint("download_bytes", { mode: "number" }).notNull().default(0),
  /**
   * The highest version a key of the project had when it was deleted or purged: a key written again starts above
   * it, so an `if_version` read before the deletion never matches the new key's value.
   */
  kvVersionFloor: integer("kv_version_floor").notNull().default(0),
});

/** Objects to erase from the blob store once `not_before` has passed (replaced/deleted files, dropped uploads). */
export const diskTrash = pgTable(
  "disk_trash",
  {
    blobKey: text("blob_key").primaryKey(),
    projectId: text("project_id").notNull(),
    notBefore: ts("not_before").notNull(),
  },
  (t) => [index("disk_trash_due_idx").on(t.notBefore)],
);
