import net from "node:net";

/**
 * For a test on PostgreSQL: a TCP proxy to DATABASE_URL's server that, once armed, loses the answer to a COMMIT. It
 * passes everything on until the client sends a COMMIT (after a statement matching `after`, when given); from there
 * it holds the server's answers back, and once the server has answered COMMIT (the transaction is durable) it closes
 * the client's connection: exactly a connection lost after the commit. It fires once.
 */
export async function commitDroppingProxy() {
  const target = new URL(process.env.DATABASE_URL ?? "");
  const sockets: net.Socket[] = [];
  const state = { armed: false, after: null as RegExp | null, fired: false };
  const proxy = net.createServer((client) => {
    sockets.push(client);
    const server = net.connect(Number(target.port || 5432), target.hostname);
    let seen = false;
    let holding = false;
    client.on("data", (d) => {
      const text = d.toString("latin1");
      if (state.armed && !state.fired && (!state.after || state.after.test(text))) seen = true;
      if (seen && !state.fired && /commit\0/i.test(text)) holding = true;
      server.write(d);
    });
    server.on("data", (d) => {
      if (!holding) return void client.write(d);
      if (d.includes(Buffer.from("COMMIT\0"))) {
        state.fired = true;
        client.destroy();
      }
    });
    for (const s of [client, server]) s.on("error", () => {});
    client.on("close", () => server.destroy());
    server.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve()));
  const url = new URL(target);
  url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  return {
    /** DATABASE_URL through the proxy. */
    url: url.toString(),
    arm: (after?: RegExp) => {
      state.armed = true;
      state.after = after ?? null;
    },
    fired: () => state.fired,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
