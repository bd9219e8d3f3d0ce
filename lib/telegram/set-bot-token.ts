import { randomBytes } from "node:crypto";
import type { Actor } from "@/lib/actor";
import { and, eq, ne } from "drizzle-orm";
import type { Executor } from "@/lib/db/client";
import { approvalSettings } from "@/lib/db/schema/approvals";
import { encryptSecret } from "@/lib/crypto/secret-box";
import { secretSlot } from "@/lib/crypto/secret-slot";
import { z } from "zod";
import { changeChannel } from "@/lib/db/change-channel";
import { AppError } from "@/lib/errors";
import { botApi } from "@/lib/telegram/telegram-api";

/** Every instance's Telegram service restarts the project's bot when this fires (on commit). */
/** Restarts a project's bot on every instance once its token changed: the project id. */
export const botChanges = changeChannel("brynth_telegram", z.string());

const TOKEN = /^\d{3,20}:[A-Za-z0-9_-]{30,64}$/;

/** A token Telegram accepted, and the bot it names: saveBotToken stores it. */
export interface CheckedBotToken {
  token: string;
  me: Awaited<ReturnType<ReturnType<typeof botApi>["getMe"]>>;
}

/**
 * The owner sets the project's bot token (from @BotFather). It is checked with getMe, stored encrypted with a fresh
 * webhook secret, and the bot restarts on every instance. Telegram is off until this is done. In two steps, so that
 * routes wait on Telegram before their transaction opens: checkBotToken, then saveBotToken.
 */
export async function setBotToken(tx: Executor, opts: { actor: Actor; token: string }) {
  return saveBotToken(tx, { actor: opts.actor, checked: await checkBotToken(opts.token) });
}

/** The token's shape, then Telegram's getMe: a validation_error naming `token` when either refuses it. */
export async function checkBotToken(raw: string): Promise<CheckedBotToken> {
  const token = raw.trim();
  if (!TOKEN.test(token)) {
    throw new AppError("validation_error", "token: does not look like a bot token (digits, a colon, then 30+ characters).", {
      details: [{ field: "token", message: "That does not look like a bot token: digits, a colon, then 30 or more characters" }],
      fix: "Copy the token @BotFather gave you, e.g. 123456789:AA…",
    });
  }
  try {
    return { token, me: await botApi(token).getMe() };
  } catch (err) {
    throw new AppError("validation_error", `token: Telegram refused it (${(err as Error).message}).`, {
      details: [{ field: "token", message: `Telegram did not accept this token (${(err as Error).message}); check it with @BotFather` }],
      fix: "Check the token with @BotFather; revoked tokens stop working.",
    });
  }
}

/** Stores a checked token encrypted, with a fresh webhook secret, and restarts the bot on every instance on commit. */
export async function saveBotToken(tx: Executor, opts: { actor: Actor; checked: CheckedBotToken }) {
  const { token, me } = opts.checked;
  const projectId = opts.actor.projectId;
  // One bot's updates reach one poller (Telegram answers the second 409) or one webhook: set on two projects, a
  // press or /start code in one project's chat could land on the other and be lost (found by helper-103).
  const [taken] = await tx
    .select({ projectId: approvalSettings.projectId })
    .from(approvalSettings)
    .where(and(eq(approvalSettings.telegramBotId, String(me.id)), ne(approvalSettings.projectId, projectId)))
    .limit(1);
  if (taken) {
    throw new AppError("CONFLICT", `The bot @${me.username} is already connected to another project on this instance.`, {
      details: [{ field: "token", message: `@${me.username} is already connected to another project: each project needs a bot of its own` }],
      fix: "Create another bot with @BotFather for this project, or remove the token from the other project first.",
    });
  }
  const values = {
    telegramTokenEnc: encryptSecret(token, secretSlot(approvalSettings.telegramTokenEnc, projectId)),
    telegramBotId: String(me.id),
    telegramUsername: me.username,
    telegramWebhookSecretEnc: encryptSecret(randomBytes(24).toString("base64url"), secretSlot(approvalSettings.telegramWebhookSecretEnc, projectId)),
    telegramError: null,
    updatedAt: new Date(),
  };
  await tx
    .insert(approvalSettings)
    .values({ projectId, ...values })
    .onConflictDoUpdate({ target: approvalSettings.projectId, set: values });
  botChanges.notify(tx, projectId);
  return { username: me.username, bot_id: String(me.id) };
}

export async function removeBotToken(tx: Executor, opts: { actor: Actor }) {
  const cleared = {
    telegramTokenEnc: null,
    telegramBotId: null,
    telegramUsername: null,
    telegramWebhookSecretEnc: null,
    telegramError: null,
    updatedAt: new Date(),
  };
  await tx.insert(approvalSettings).values({ projectId: opts.actor.projectId }).onConflictDoUpdate({ target: approvalSettings.projectId, set: cleared });
  botChanges.notify(tx, opts.actor.projectId);
}
