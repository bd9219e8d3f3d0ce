// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, needs Node 22) on the scenarios that
// apply to a tools-only server, against a running Brynth. The suite sends no credentials, so a loopback proxy adds
// a test key and passes Host and Origin through unchanged (the DNS-rebinding scenario depends on them).
// Usage: node scripts/mcp-conformance.mjs <node22> <conformance index.js> [server command...]
import { spawn } from "node:child_process";
import { createServer, request } from "node:http";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [node22, conformance, ...serverCmd] = process.argv.slice(2);
const scenarios = ["server-initialize", "ping", "tools-list", "server-sse-polling", "dns-rebinding-protection"];
const cmd = serverCmd.length ? serverCmd : [process.execPath, "dist/server.mjs"];
const port = 3500 + Math.floor(Math.random() * 400);
const env = {
  ...process.env,
  NODE_ENV: "production",
  PORT: String(port),
  HOST: "127.0.0.1",
  DATA_DIR: mkdtempSync(join(tmpdir(), "brynth-conformance-")),
  OWNER_EMAIL: "conformance@example.com",
  OWNER_PASSWORD: "conformance-password",
};
delete env.DATABASE_URL;
const server = spawn(cmd[0], cmd.slice(1), { env, stdio: ["ignore", "pipe", "inherit"] });
await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    if (/ready on/.test(out)) resolve();
  });
  server.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
});
const base = `http://127.0.0.1:${port}`;
const keyRes = await fetch(`${base}/api/v1/keys`, {
  method: "POST",
  headers: {
    authorization: `Basic ${Buffer.from("conformance@example.com:conformance-password").toString("base64")}`,
    "content-type": "application/json",
  },
  body: JSON.stringify({ name: "conformance", scopes: ["ledger:read"] }),
});
const { secret } = await keyRes.json();

const proxy = createServer((req, res) => {
  const upstream = request(
    { host: "127.0.0.1", port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${secret}` } },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on("error", () => res.destroy());
  req.pipe(upstream);
});
await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const proxyUrl = `http://localhost:${proxy.address().port}/mcp`;

let failed = 0;
for (const scenario of scenarios) {
  // Asynchronous on purpose: the proxy lives in this process and must keep serving while the suite runs.
  const child = spawn(node22, [conformance, "server", "--url", proxyUrl, "--scenario", scenario], { timeout: 120_000 });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const status = await new Promise((resolve) => child.on("close", resolve));
  const ok = status === 0 && !/FAILURE/.test(out);
  if (!ok) failed++;
  console.log(`${ok ? "PASS" : "FAIL"} ${scenario}`);
  if (!ok || process.env.VERBOSE) console.log(out);
}
proxy.close();
server.kill("SIGTERM");
console.log(`${scenarios.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
