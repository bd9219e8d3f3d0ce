// `npm start`: build once when there is no build (or it is older than the sources), then run in production.
import { existsSync, statSync } from "node:fs";
import { spawnSync, spawn } from "node:child_process";
import { runtimeEnv } from "./runtime-env.mjs";

const built = existsSync(".next/BUILD_ID") && existsSync("dist/server.mjs");
const stale = built && statSync("package-lock.json", { throwIfNoEntry: false })?.mtimeMs > statSync(".next/BUILD_ID").mtimeMs;
if (!built || stale || process.env.BRYNTH_REBUILD === "1") {
  console.log("Building Brynth (first start only)…");
  const r = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const child = spawn(process.execPath, ["dist/server.mjs"], {
  stdio: "inherit",
  env: { ...runtimeEnv(), NODE_ENV: "production" },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => child.kill(sig));
child.on("exit", (code) => process.exit(code ?? 0));
