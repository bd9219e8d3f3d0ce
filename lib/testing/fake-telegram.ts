import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface BotCall {
  token: string;
  method: string;
  params: Record<string, unknown>;
}

export const FAKE_BOT = { id: 700_001, username: "brynth_test_bot" };

/**
 * A small local Bot API server for tests (there is no internet here), behind grammy's `client.apiRoot`: getMe,
 * getUpdates (long-polls until an update is pushed), sendMessage, editMessageText, answerCallbackQuery, setWebhook,
 * deleteWebhook. Every call is recorded; updates are pushed by the test.
 */
export async function startFakeTelegram() {
  const calls: BotCall[] = [];
  const updates: Record<string, unknown>[] = [];
  let nextUpdateId = 1;
  let nextMessageId = 100;
  let wake: (() => void) | null = null;
  const waiters = new Set<() => void>();

  const result = (method: string, params: Record<string, unknown>): unknown => {
    switch (method) {
      case "getMe":
        return {
          id: FAKE_BOT.id,
          is_bot: true,
          first_name: "Brynth test",
          username: FAKE_BOT.username,
          can_join_groups: false,
          can_read_all_group_messages: false,
          supports_inline_queries: false,
        };
      case "sendMessage":
        return {
          message_id: nextMessageId++,
          date: Math.floor(Date.now() / 1000),
          chat: { id: params.chat_id, type: "private" },
          from: { id: FAKE_BOT.id, is_bot: true, first_name: "Brynth test" },
          text: params.text,
        };
      case "editMessageText":
        return { message_id: params.message_id, date: Math.floor(Date.now() / 1000), chat: { id: params.chat_id, type: "private" }, text: params.text };
      default:
        return true;
    }
  };

  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? "");
      if (!m) {
        res.writeHead(404).end();
        return;
      }
      const [, token, method] = m;
      const params = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      const send = (payload: unknown) => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(payload));
      };
      if (token.endsWith("revoked000000000000000000000000000")) return send({ ok: false, error_code: 401, description: "Unauthorized" });
      if (method === "getUpdates") {
        const offset = Number(params.offset ?? 0);
        const due = () => updates.filter((u) => (u.update_id as number) >= offset);
        if (due().length === 0 && Number(params.timeout ?? 0) > 0) {
          await new Promise<void>((resolve) => {
            const t = setTimeout(done, 500);
            function done() {
              clearTimeout(t);
              waiters.delete(done);
              resolve();
            }
            waiters.add(done);
          });
        }
        return send({ ok: true, result: due() });
      }
      calls.push({ token, method, params });
      wake?.();
      send({ ok: true, result: result(method, params) });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const apiRoot = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiRoot,
    calls,
    /** Queues an update for the next getUpdates and wakes a waiting poll. */
    push(update: Record<string, unknown>) {
      updates.push({ update_id: nextUpdateId++, ...update });
      for (const w of [...waiters]) w();
    },
    nextUpdateId: () => nextUpdateId++,
    /** How many calls were recorded so far: pass it to waitFor to look only at later calls. */
    mark: () => calls.length,
    /** Resolves once a call recorded at index `from` or later satisfies `match`. */
    async waitFor(match: (c: BotCall) => boolean, from = 0, timeoutMs = 10_000): Promise<BotCall> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = calls.slice(from).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching Bot API call; calls: ${calls.map((c) => c.method).join(", ")}`);
        await new Promise<void>((resolve) => {
          wake = () => {
            wake = null;
            resolve();
          };
          setTimeout(resolve, 100);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const w of [...waiters]) w();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type FakeTelegram = Awaited<ReturnType<typeof startFakeTelegram>>;

/** Update builders in the Bot API's shape. */
export const tgUpdates = {
  message(chatId: number, text: string, extra: Record<string, unknown> = {}) {
    return {
      message: {
        message_id: Math.floor(Math.random() * 1e6),
        date: Math.floor(Date.now() / 1000),
        chat: { id: chatId, type: "private", first_name: "Mario" },
        from: { id: chatId, is_bot: false, first_name: "Mario" },
        text,
        ...(text.startsWith("/") ? { entities: [{ type: "bot_command", offset: 0, length: text.split(" ")[0].length }] } : {}),
        ...extra,
      },
    };
  },
  callback(chatId: number, data: string, messageId = 1) {
    return {
      callback_query: {
        id: `cb${Math.floor(Math.random() * 1e9)}`,
        from: { id: chatId, is_bot: false, first_name: "Mario" },
        chat_instance: "ci",
        data,
        message: { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: chatId, type: "private" }, text: "request" },
      },
    };
  },
};
