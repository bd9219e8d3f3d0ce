// `npm start`: build when there is no build or it is older than the sources, then run in production.
import { spawnSync, spawn } from "node:child_process";
import { buildNeeded } from "./build-freshness.mjs";
import { runtimeEnv } from "./runtime-env.mjs";

const why = process.env.BRYNTH_REBUILD === "1" ? "BRYNTH_REBUILD=1" : buildNeeded(process.cwd());
if (why) {
  console.log(`Building Brynth (${why})…`);
  const r = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const child = spawn(process.execPath, ["dist/server.mjs"], {
  stdio: "inherit",
  env: { ...runtimeEnv(), NODE_ENV: "production" },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
