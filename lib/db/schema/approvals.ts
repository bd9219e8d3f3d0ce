import { sql } from "drizzle-orm";
import { bigint, boolean, doublePrecision, index, integer, json, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { timestamps, ts } from "../columns";
import { projects } from "./projects";

export const channelKinds = ["owner", "email", "telegram"] as const;
export type ChannelKind = (typeof channelKinds)[number];
/**
 * `unverified`: waiting for the email link or the Telegram /start; `awaiting_approval`: verified, the owner has not
 * approved it yet; `active`: receives requests; `removed`: its links and buttons no longer work.
 */
export const channelStatuses = ["unverified", "awaiting_approval", "active", "removed"] as const;
export type ChannelStatus = (typeof channelStatuses)[number];

/** Where people receive requests. Every project has one owner channel (the dashboard), created on first use. */
export const approvalChannels = pgTable(
  "approval_channels",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind").$type<ChannelKind>().notNull(),
    /** Short name shown on decisions, e.g. `mario`. */
    label: text("label").notNull(),
    /** Email channels: the address, lower case. */
    address: text("address"),
    status: text("status").$type<ChannelStatus>().notNull(),
    /** Telegram: the private chat linked by /start. */
    telegramChatId: text("telegram_chat_id"),
    /** SHA-256 of the email verification token or the Telegram start code; one use, cleared once used. */
    verifyTokenHash: text("verify_token_hash").unique(),
    verifyExpiresAt: ts("verify_expires_at"),
    verifiedAt: ts("verified_at"),
    approvedAt: ts("approved_at"),
    /** Who approved the channel (owner email). */
    approvedBy: text("approved_by"),
    /** Agent label or owner email that added it. */
    createdBy: text("created_by"),
    removedAt: ts("removed_at"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("approval_channels_owner_idx").on(t.projectId).where(sql`kind = 'owner'`),
    index("approval_channels_project_idx").on(t.projectId, t.status),
    uniqueIndex("approval_channels_chat_idx").on(t.projectId, t.telegramChatId).where(sql`status <> 'removed'`),
  ],
);
export type ApprovalChannel = typeof approvalChannels.$inferSelect;

/** `tool`: an email_send or file_url call the policy sent to a person; `policy`: a policy_set proposal. */
export const requestKinds = ["approval", "question", "policy", "tool"] as const;
export type RequestKind = (typeof requestKinds)[number];
export const requestStatuses = ["pending", "approved", "denied", "modified", "answered", "needs_context", "expired"] as const;
export type RequestStatus = (typeof requestStatuses)[number];
export const riskLevels = ["low", "medium", "high"] as const;
export type RiskLevel = (typeof riskLevels)[number];

/** One question to a person (or an answer the policy gave at once). One decision each: see decide-request.ts. */
export const approvalRequests = pgTable(
  "approval_requests",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    kind: text("kind").$type<RequestKind>().notNull(),
    /** ask_approval's action; the tool name for tool requests; `policy_set` for proposals; null for questions. */
    action: text("action"),
    /** The line a person reads first (ask_human: the question). */
    summary: text("summary").notNull(),
    details: text("details"),
    risk: text("risk").$type<RiskLevel>(),
    amount: doublePrecision("amount"),
    options: jsonb("options").$type<string[]>().notNull().default([]),
    status: text("status").$type<RequestStatus>().notNull().default("pending"),
    /** The chosen option (`modified`, `answered`) or the free-text answer. */
    decision: text("decision"),
    comment: text("comment"),
    /** `policy:<rule>`, `owner:<email>` or `channel:<label>`. */
    decidedBy: text("decided_by"),
    decidedChannelId: text("decided_channel_id"),
    decidedAt: ts("decided_at"),
    expiresAt: ts("expires_at").notNull(),
    /** The channels asked (or told, for auto_approve_notify), fixed at creation; removal moves them to the owner. */
    approvers: jsonb("approvers").$type<string[]>().notNull(),
    /** The policy rule that matched, if any, and the policy version it belongs to. */
    rule: text("rule"),
    policyVersion: integer("policy_version").notNull().default(0),
    stateRef: text("state_ref"),
    callbackUrl: text("callback_url"),
    keyId: text("key_id"),
    agent: text("agent"),
    platform: text("platform"),
    /**
     * The exact action a person sees and approves: tool calls (recipients, subject, body hash, attachments; path and
     * expiry), policy proposals (the rules). `action_hash` covers it and the request's text.
     */
    payload: json("payload"),
    actionHash: text("action_hash").notNull(),
    /** file_url: when the approval gave its one link. */
    consumedAt: ts("consumed_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("approval_requests_project_idx").on(t.projectId, t.createdAt, t.id),
    index("approval_requests_pending_idx").on(t.projectId, t.createdAt).where(sql`status = 'pending'`),
    index("approval_requests_expiry_idx").on(t.expiresAt).where(sql`status = 'pending'`),
  ],
);
export type ApprovalRequest = typeof approvalRequests.$inferSelect;

/** One request sent to one email or Telegram channel: its single-use link, or the Telegram message to edit. */
export const approvalDeliveries = pgTable(
  "approval_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    requestId: text("request_id")
      .notNull()
      .references(() => approvalRequests.id, { onDelete: "cascade" }),
    channelId: text("channel_id")
      .notNull()
      .references(() => approvalChannels.id, { onDelete: "cascade" }),
    /** A notice without buttons (auto_approve_notify). */
    notice: boolean("notice").notNull().default(false),
    /** Email: SHA-256 of the link token; the plain token exists only in the sent message. */
    tokenHash: text("token_hash").unique(),
    usedAt: ts("used_at"),
    telegramChatId: text("telegram_chat_id"),
    telegramMessageId: bigint("telegram_message_id", { mode: "number" }),
    /** Telegram: a comment typed before pressing a button. */
    draftComment: text("draft_comment"),
    sentAt: ts("sent_at"),
    /** When the message was updated with the outcome (Telegram). */
    closedAt: ts("closed_at"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("approval_deliveries_request_channel_idx").on(t.requestId, t.channelId),
    index("approval_deliveries_unsent_idx").on(t.createdAt).where(sql`sent_at is null`),
  ],
);
export type ApprovalDelivery = typeof approvalDeliveries.$inferSelect;

/** Every version of a project's policy, with who proposed and who approved it. The newest is in force. */
export const policyVersions = pgTable(
  "policy_versions",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    /** `json`, not jsonb: the rules keep the key order they were written in. */
    rules: json("rules").notNull(),
    note: text("note"),
    proposedBy: text("proposed_by"),
    approvedBy: text("approved_by").notNull(),
    /** `dashboard`, or the channel id the proposal was approved on. */
    approvedVia: text("approved_via").notNull(),
    requestId: text("request_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.version] })],
);
export type PolicyVersion = typeof policyVersions.$inferSelect;

/** Per-project approval settings; every secret here is encrypted with encryptSecret. */
export const approvalSettings = pgTable("approval_settings", {
  projectId: text("project_id")
    .primaryKey()
    .references(() => projects.id, { onDelete: "cascade" }),
  /** Standard Webhooks secret (`whsec_…`) that signs callback_url deliveries. */
  callbackSecretEnc: text("callback_secret_enc"),
  /** The secret a rotation replaced: it signs beside the new one until `previous_callback_secret_until`. */
  previousCallbackSecretEnc: text("previous_callback_secret_enc"),
  previousCallbackSecretUntil: ts("previous_callback_secret_until"),
  telegramTokenEnc: text("telegram_token_enc"),
  telegramBotId: text("telegram_bot_id"),
  telegramUsername: text("telegram_username"),
  /** Checked against X-Telegram-Bot-Api-Secret-Token in webhook mode. */
  telegramWebhookSecretEnc: text("telegram_webhook_secret_enc"),
  /** The last error talking to Telegram, shown on the Channels screen. */
  telegramError: text("telegram_error"),
  ...timestamps,
});
export type ApprovalSettings = typeof approvalSettings.$inferSelect;
