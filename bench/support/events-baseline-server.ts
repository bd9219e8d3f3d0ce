/**
 * Baseline for webhook intake: plain node:http, the HMAC check over the raw body, and the same event insert as one
 * statement. No source lookup, no JSON handling, no dedupe, no wake-up. Prints `ready <url>`.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";

const sql = postgres(process.env.DATABASE_URL!, { max: 20, onnotice: () => {} });
const secret = process.env.BENCH_HMAC_SECRET!;
const projectId = process.env.BENCH_PROJECT_ID!;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", async () => {
    const body = Buffer.concat(chunks);
    const given = Buffer.from(String(req.headers["x-signature"] ?? ""), "hex");
    const expected = createHmac("sha256", secret).update(body).digest();
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401).end();
      return;
    }
    const id = `evt_${randomBytes(16).toString("hex")}`;
    const now = new Date();
    await sql`insert into events (id, project_id, source, type, status, trust, payload, content_type, payload_size, headers, received_at, available_at)
      values (${id}, ${projectId}, 'baseline', 'bench.event', 'pending', 'external_untrusted', ${body.toString("utf8")}::json,
        'application/json', ${body.length}, ${sql.json({ "content-type": "application/json" })}, ${now}, ${now})`;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ received: true, event_id: id }));
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(`ready http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on("SIGTERM", () => process.exit(0));
