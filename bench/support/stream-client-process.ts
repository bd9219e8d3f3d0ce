/**
 * bench/mail-stream.ts's sockets, SOCKETS of them in a process of their own (URLS: the instances, taken in turn),
 * each subscribed to MAILBOX_ID with the key SECRET. Prints `ready` once all are subscribed and `count <n>`
 * every half second: distinct (socket, event) pairs seen, so a replay's repeats never count twice. Reads commands on stdin: `drop` closes RECONNECT sockets and opens them again a second later
 * with `since` = the last event_id each saw (prints `reconnected`); `report <commits file> <out file>` writes the
 * commit → frame latencies (sockets never dropped; a replay's frames are old by design) and, per group of sockets,
 * the events lost and repeated.
 */
import { readFileSync, writeFileSync } from "node:fs";
import WebSocket from "ws";

const URLS = JSON.parse(process.env.URLS ?? "[]") as string[];
const SOCKETS = Number(process.env.SOCKETS ?? 100);
const RECONNECT = Number(process.env.RECONNECT ?? 10);
const now = () => performance.timeOrigin + performance.now();

interface Sock {
  url: string;
  ws: WebSocket | null;
  /** Per event id: arrivals, and the first arrival's time. */
  seen: Map<string, { n: number; at: number }>;
  last: string | null;
  dropped: boolean;
}

let frames = 0;
const SUBSCRIBED = Buffer.from('{"type":"subscribed"');
const EVENT = Buffer.from('{"type":"event"');
const EVENT_ID = Buffer.from('"event_id":"');
const connect = (s: Sock, since: string | null) =>
  new Promise<void>((resolve, reject) => {
    const ws = new WebSocket(`${s.url.replace("http", "ws")}/api/v1/stream`, { headers: { authorization: `Bearer ${process.env.SECRET}` } });
    s.ws = ws;
    ws.on("message", (data: Buffer) => {
      const at = now();
      // Looked up in the bytes, not decoded and matched as text: 10,000 frames a second go through this process,
      // and what the bench's own sockets cost is not the stream's latency.
      if (data.subarray(0, SUBSCRIBED.length).equals(SUBSCRIBED)) return resolve();
      if (!data.subarray(0, EVENT.length).equals(EVENT)) return;
      const start = data.indexOf(EVENT_ID);
      if (start < 0) return;
      const from = start + EVENT_ID.length;
      const id = data.toString("latin1", from, data.indexOf(34, from));
      const got = s.seen.get(id);
      if (got) got.n++;
      else {
        frames++;
        s.seen.set(id, { n: 1, at });
      }
      s.last = id;
    });
    ws.on("error", reject);
    ws.on("open", () => ws.send(JSON.stringify({ type: "subscribe", inbox_ids: [process.env.MAILBOX_ID], ...(since ? { since } : {}) })));
  });

async function main() {
  const sockets: Sock[] = Array.from({ length: SOCKETS }, (_, i) => ({ url: URLS[i % URLS.length], ws: null, seen: new Map(), last: null, dropped: false }));
  for (let i = 0; i < sockets.length; i += 20) await Promise.all(sockets.slice(i, i + 20).map((s) => connect(s, null)));
  setInterval(() => console.log(`count ${frames}`), 500).unref();
  console.log("ready");
  let buffered = "";
  process.stdin.on("data", (d: Buffer) => {
    buffered += d.toString();
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) void command(line.split(" "), sockets);
  });
}

async function command([cmd, ...args]: string[], sockets: Sock[]) {
  if (cmd === "drop") {
    // Spread over the instances: every k-th socket.
    const step = Math.max(1, Math.floor(SOCKETS / RECONNECT));
    const dropped = sockets.filter((_, k) => k % step === 0).slice(0, RECONNECT);
    for (const s of dropped) {
      s.dropped = true;
      s.ws?.terminate();
    }
    await new Promise((r) => setTimeout(r, 1000));
    await Promise.all(dropped.map((s) => connect(s, s.last)));
    console.log("reconnected");
  } else if (cmd === "report") {
    const commits = JSON.parse(readFileSync(args[0], "utf8")) as Record<string, number>;
    const ids = Object.keys(commits);
    const latencies: number[] = [];
    const tally = { steady: { sockets: 0, lost: 0, duplicates: 0 }, reconnected: { sockets: 0, lost: 0, duplicates: 0 } };
    for (const s of sockets) {
      const t = s.dropped ? tally.reconnected : tally.steady;
      t.sockets++;
      for (const id of ids) {
        const got = s.seen.get(id);
        if (!got) t.lost++;
        else {
          if (got.n > 1) t.duplicates++;
          if (!s.dropped) latencies.push(Number((got.at - commits[id]).toFixed(2)));
        }
      }
    }
    writeFileSync(args[1], JSON.stringify({ latencies, ...tally }));
    for (const s of sockets) s.ws?.terminate();
    console.log("reported");
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
