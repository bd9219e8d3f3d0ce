import { createServer, type AddressInfo } from "node:net";

/** A port free on 127.0.0.1 right now, for a process that must keep it across restarts (an instance, PostgreSQL). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
