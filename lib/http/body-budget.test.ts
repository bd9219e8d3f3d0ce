import { connect, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { startApiServer } from "@/lib/testing/api-server";
import { envSettings } from "@/lib/testing/env-settings";
import { seedProject } from "@/lib/testing/seed";

/** Request bodies received at once (MAX_INFLIGHT_BODY_BYTES), over real sockets. */
let server: Awaited<ReturnType<typeof startApiServer>>;
let project: Awaited<ReturnType<typeof seedProject>>;
const bodyEnv = envSettings("MAX_INFLIGHT_BODY_BYTES");
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startApiServer();
  project = await seedProject({ name: "Bodies" });
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
  bodyEnv.restore();
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const jsonBody = (bytes: number) => JSON.stringify({ value: "x".repeat(bytes - 12) });

/** A PUT whose body arrives in part and then stalls, as a slow (or hostile) client sends it. */
function stalledPut(path: string, body: string, sent: number) {
  const { port } = new URL(server.url);
  const socket = connect(Number(port), "127.0.0.1");
  sockets.push(socket);
  socket.on("error", () => {});
  const answer = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (d) => {
      text += d.toString("latin1");
      resolve(text);
    });
  });
  socket.write(
    `PUT ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${project.secret}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, sent)}`,
  );
  return { answer, finish: () => socket.write(body.slice(sent)) };
}

it("answers 503 with Retry-After to a body that does not fit beside those still arriving, and takes it once they are in", async () => {
  bodyEnv.set({ MAX_INFLIGHT_BODY_BYTES: "250000" });
  const first = stalledPut("/api/v1/kv/held", jsonBody(200_000), 150_000);
  await sleep(300);
  const put = () =>
    fetch(`${server.url}/api/v1/kv/squeezed`, {
      method: "PUT",
      headers: { authorization: `Bearer ${project.secret}`, "content-type": "application/json" },
      body: jsonBody(150_000),
    });
  const refused = await put();
  expect(refused.status).toBe(503);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect((await refused.json()).error).toMatchObject({ code: "service_unavailable" });

  first.finish();
  expect(await first.answer).toMatch(/^HTTP\/1\.1 (?!503)\d{3} /);
  expect((await put()).status).not.toBe(503);
});
