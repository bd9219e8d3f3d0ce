// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, needs Node 22) on the scenarios that
// apply to a tools-only server, against a running Brynth. The suite sends no credentials, so a loopback proxy adds
// one and passes Host and Origin through unchanged (the DNS-rebinding scenario depends on them). Every scenario runs
// twice: with an API key, and with an OAuth access token this script obtains the way a client does (401 challenge →
// protected-resource metadata → authorization-server metadata → registration → authorize with PKCE S256, approved
// as the owner → token). The suite's own auth/* scenarios test OAuth *clients* against its mock authorization server
// (`conformance client --command …`); none of them runs against a server, so the server side is checked here.
// Usage: node scripts/mcp-conformance.mjs <node22> <conformance index.js> [server command...]
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
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
const accessToken = await oauthToken(base);

/** An access token for /mcp through the whole OAuth flow, checking each discovery step on the way. */
async function oauthToken(base) {
  const owner = `Basic ${Buffer.from("conformance@example.com:conformance-password").toString("base64")}`;
  const challenge = (await fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).headers.get(
    "www-authenticate",
  );
  const prmUrl = /resource_metadata="([^"]+)"/.exec(challenge ?? "")?.[1];
  if (!prmUrl) throw new Error(`401 without resource_metadata: ${challenge}`);
  const prm = await (await fetch(prmUrl)).json();
  // The resource is PUBLIC_URL's /mcp (here the default, http://localhost:port), not necessarily the address used.
  if (new URL(prm.resource).pathname !== "/mcp") throw new Error(`protected resource is ${prm.resource}`);
  const as = await (await fetch(`${prm.authorization_servers[0]}/.well-known/oauth-authorization-server`)).json();
  if (!as.code_challenge_methods_supported?.includes("S256")) throw new Error("no S256 in the authorization-server metadata");
  const redirect = "http://127.0.0.1:9/callback";
  const client = await (
    await fetch(as.registration_endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "conformance", redirect_uris: [redirect] }),
    })
  ).json();
  const verifier = randomBytes(32).toString("base64url");
  const query = new URLSearchParams({
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirect,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    resource: prm.resource,
    state: "conformance",
  });
  const start = await fetch(`${as.authorization_endpoint}?${query}`, { redirect: "manual" });
  if (start.status !== 302 || !start.headers.get("location")?.startsWith("/oauth/consent")) throw new Error(`authorize answered ${start.status}`);
  const decision = await fetch(as.authorization_endpoint, {
    method: "POST",
    headers: { authorization: owner, origin: new URL(prm.resource).origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ request: query.toString(), decision: "approve", scope: "ledger:read" }),
  });
  const back = /url=([^"]+)"/.exec(await decision.text())?.[1]?.replace(/&amp;/g, "&");
  const code = back && new URL(back).searchParams.get("code");
  if (!code) throw new Error(`no code from the consent (${decision.status})`);
  const tokens = await (
    await fetch(as.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code,
        client_id: client.client_id,
        redirect_uri: redirect,
        code_verifier: verifier,
        resource: prm.resource,
      }),
    })
  ).json();
  if (!tokens.access_token?.startsWith("oat_")) throw new Error(`token endpoint answered ${JSON.stringify(tokens)}`);
  console.log("PASS oauth discovery, registration, authorization and token (server side)");
  return tokens.access_token;
}
let credential = secret;

const proxy = createServer((req, res) => {
  const upstream = request(
    { host: "127.0.0.1", port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${credential}` } },
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
const runs = [
  ["key", secret],
  ["oauth", accessToken],
];
for (const [label, value] of runs) {
  credential = value;
  for (const scenario of scenarios) {
    // Asynchronous on purpose: the proxy lives in this process and must keep serving while the suite runs.
    const child = spawn(node22, [conformance, "server", "--url", proxyUrl, "--scenario", scenario], { timeout: 120_000 });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const status = await new Promise((resolve) => child.on("close", resolve));
    const ok = status === 0 && !/FAILURE/.test(out);
    if (!ok) failed++;
    console.log(`${ok ? "PASS" : "FAIL"} ${scenario} (${label})`);
    if (!ok || process.env.VERBOSE) console.log(out);
  }
}
proxy.close();
server.kill("SIGTERM");
console.log(`${scenarios.length * runs.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
