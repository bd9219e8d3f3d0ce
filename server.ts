import { createServer, type Server } from "node:http";
import next from "next";
import { env, ConfigError } from "@/lib/env";
import { closeDb, getHandle } from "@/lib/db/client";
import { migrateDb } from "@/lib/db/migrate";
import { bootstrapOwner } from "@/lib/owners/bootstrap-owner";
import { fastPathHandler } from "@/lib/http/fast-path";
import { stampRemoteAddress } from "@/lib/http/request-info";
import { startServices } from "@/lib/services/start-services";
import { markStarting } from "@/lib/services/server-starting";
import { portError, StartupError } from "@/lib/services/port-error";
import { attachStreamUpgrade } from "@/lib/http/stream/ws-stream";
import { capConnectionsPerAddress } from "@/lib/http/connection-cap";
import { drainOnStop } from "@/lib/http/drain-server";
import { loadRemoteAccess } from "@/lib/settings/remote-access";

/**
 * One process runs everything (ARCHITECTURE §2): Next for the dashboard and routes, the hot API paths dispatched
 * directly to their fetch handlers, and the background services.
 */
async function main() {
  const config = env();
  process.env.NEXTAUTH_URL ??= config.publicUrl;
  const handle = await getHandle();
  await migrateDb();
  await bootstrapOwner();
  // Host, Origin and OAuth checks read Settings → Remote access from memory: held before the first request.
  await loadRemoteAccess();

  const dev = config.NODE_ENV === "development";
  const app = next({ dev, hostname: config.HOST, port: config.PORT, dir: process.cwd() });
  await app.prepare();
  const nextHandler = app.getRequestHandler();
  const fastPath = fastPathHandler(config.publicUrl);

  const server: Server = createServer((req, res) => {
    stampRemoteAddress(req);
    if (fastPath(req, res)) return;
    nextHandler(req, res).catch((err) => {
      console.error("[brynth] request failed", err);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  // Only /api/v1/stream is ours; Next attaches its own upgrade listener for HMR in dev (RUNTIME-FACTS).
  attachStreamUpgrade(server, config.publicUrl, { dev });
  capConnectionsPerAddress(server);
  const drain = drainOnStop(server);

  // A taken port ends the start with one line naming it and PORT (main's catch closes the database and exits 1).
  // Until the services below have started, GET /readyz answers 503 "starting".
  markStarting(true);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.PORT, config.HOST, () => {
      server.off("error", reject);
      resolve();
    });
  }).catch((err) => {
    throw portError(err, { label: "Port", port: config.PORT, variable: "PORT" });
  });
  const stopServices = await startServices().catch((err) => {
    server.close();
    throw err;
  });
  markStarting(false);
  console.log(`Brynth ready on ${config.publicUrl} (${handle.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}, ${dev ? "dev" : "production"})`);

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      console.log(`[brynth] ${signal} again: stopping now`);
      process.exit(1);
    }
    stopping = true;
    const began = performance.now();
    const grace = config.HTTP_STOP_GRACE_SECONDS;
    console.log(`[brynth] ${signal}: stopping; requests in flight have up to ${grace} s to finish (${signal} again stops at once)`);
    // The jobs' own grace (JOBS_STOP_GRACE_SECONDS) runs beside the requests': neither needs the other.
    const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
    const took: string[] = [];
    const timed = async <T>(name: string, work: Promise<T>) => {
      const started = performance.now();
      const out = await work;
      took.push(`${name} ${seconds(started)} s`);
      return out;
    };
    const [{ cut, requests }] = await Promise.all([
      timed("requests", drain(grace * 1000)),
      timed(
        "services",
        stopServices().catch(() => {}),
      ),
    ]);
    if (cut > 0) console.log(`[brynth] cut ${cut} requests or streams still open after ${grace} s${requests.length ? `: ${requests.join(", ")}` : ""}`);
    await timed(
      "database",
      closeDb().catch(() => {}),
    );
    // What a slow stop waited for: the requests' drain and the services' stop run side by side, then the database closes.
    console.log(`[brynth] stopped in ${seconds(began)} s (${took.join(", ")})`);
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch(async (err) => {
  if (err instanceof ConfigError || err instanceof StartupError) console.error(err.message);
  else console.error("[brynth] failed to start:", err);
  await closeDb().catch(() => {});
  process.exit(1);
});
