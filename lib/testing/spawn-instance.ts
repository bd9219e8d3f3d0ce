import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll } from "vitest";

/** Starts lib/testing/api-instance.ts as its own process on this test's database; resolves with its URL. */
export function spawnApiInstance(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "lib/testing/api-instance.ts"], {
    env: { ...process.env, NODE_ENV: "test" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      const m = /ready (\S+)/.exec((out += d));
      if (m) resolve({ url: m[1], child });
    });
    child.on("exit", (code) => reject(new Error(`instance exited with ${code}`)));
  });
}

/**
 * Two API instances on this test's database for the enclosing describe block, started before its tests and
 * stopped after them. Read `.a` and `.b` inside the tests.
 */
export function useTwoInstances() {
  const instances = {} as { a: { url: string; child: ChildProcess }; b: { url: string; child: ChildProcess } };
  beforeAll(async () => {
    [instances.a, instances.b] = await Promise.all([spawnApiInstance(), spawnApiInstance()]);
  }, 60_000);
  afterAll(() => {
    instances.a?.child.kill("SIGTERM");
    instances.b?.child.kill("SIGTERM");
  });
  return instances;
}

/** One API instance on this test file's database, started before its tests and stopped after them. Read `.url` and `.child` inside the tests. */
export function apiInstanceForFile() {
  const instance = {} as { url: string; child: ChildProcess };
  beforeAll(async () => {
    Object.assign(instance, await spawnApiInstance());
  }, 60_000);
  afterAll(() => {
    instance.child?.kill("SIGTERM");
  });
  return instance;
}
