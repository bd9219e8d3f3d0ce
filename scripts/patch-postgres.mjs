// Patches postgres.js 3.4.9 in node_modules (run by `postinstall`, so every `npm install` / `npm ci` gets it, the
// production-only install included). Upstream bug porsager/postgres#1208 (fix proposed in #1209, unreleased): when a
// connection's socket closes, a write scheduled for it runs on `null` and throws from a timer — an uncaught exception
// that leaves the query pending for ever — and a reserved connection (our transactions) released after its socket
// closed is put back in the pool as open, so every later query on it hangs the same way. The chaos run
// (scripts/chaos) hit this on a PostgreSQL restart: an instance stopped answering. lib/db/postgres-write-race.test.ts
// reproduces it. Also: the array types read on each new connection were a promise nobody awaited, so a connection
// cut meanwhile (a database dropped, a server restarting) was an unhandled rejection, which ends a Node process
// (seen in CI; reproduced in the same test file). And porsager/postgres#1130 (fix proposed in #1142, unreleased): a
// connection whose socket closed kept the query it failed as its current one, so `sql.end()` waited for that query to
// finish, which it never would: our shutdown sat out end's 5 s timeout after any PostgreSQL restart (the chaos run's
// SIGTERM took 5.1 s instead of 0.1 s). And a reserve() waiting when a connection closed was dropped, never settled
// (below; not reported upstream yet). Each edit is checked, and applied once: a different postgres.js version fails
// the install loudly instead of running unpatched.
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MARK = "/* brynth: postgres#1208 */";
const EDITS = {
  "src/connection.js": [
    // A write whose socket is gone settles its queries with CONNECTION_CLOSED instead of throwing from a timer.
    [
      "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
      `  function nextWrite(fn) {\n    if (socket === null) { ${MARK}\n      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))\n      return false\n    }\n    const x = socket.write(chunk, fn)`,
    ],
    // Teardown forgets the pending write, so the reconnected socket schedules its own (a stale timer blocked them).
    ["    clearImmediate(nextWriteTimer)\n    if (socket) {", `    clearImmediate(nextWriteTimer), chunk = nextWriteTimer = null ${MARK}\n    if (socket) {`],
    [
      "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)",
      `    clearImmediate(nextWriteTimer), chunk = nextWriteTimer = null ${MARK}\n    socket.removeListener('data', data)`,
    ],
    // A closed connection's failed query is settled (error() above, or the socket's error event): it is no longer
    // the connection's current one, which end() would wait for and a reconnect's first ReadyForQuery would resolve.
    // An end() already waiting for it (called between the socket's error and its close) is done: nothing is left.
    [
      "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n    closedTime",
      "    !hadError && (query || sent.length) && error(Errors.connection('CONNECTION_CLOSED', options, socket))\n    query = null, ended && (ended(), ending = ended = null) /* brynth: postgres#1130 */\n    closedTime",
    ],
    // The array types read on each new connection: a socket cut meanwhile rejected a promise nobody awaited (an
    // unhandled rejection, which ends a Node process); the connection's own error handling settles its queries.
    [
      "        initial.reserve && (initial = null)\n        return fetchArrayTypes()\n",
      `        initial.reserve && (initial = null)\n        return fetchArrayTypes().catch(() => {}) ${MARK}\n`,
    ],
  ],
  "src/index.js": [
    // Releasing a reserved connection that closed meanwhile leaves it where the close put it (closed or reconnecting).
    [
      "    sql.release = () => {\n      c.reserved = null",
      `    sql.release = () => {\n      if (c.queue !== reserved && c.queue !== full) return ${MARK}\n      c.reserved = null`,
    ],
    // A waiting reserve() is served from the pool's queue once a connection is open (onopen); when it is also the
    // first query of a connection being opened (its `initial`), the connection only fetches the array types and
    // leaves it there. A closed connection reconnecting for the queue's next query took it off the queue, so a
    // reserve() waiting there when a connection closed (a PostgreSQL restart) was dropped and never settled: our
    // transactions, and the requests that began them, hung for ever. It goes back on the queue (at its end: the queue
    // cannot put it first), where the reconnected connection's onopen, or another's, serves it.
    ["    queries.length && connect(c, queries.shift())", `    queries.length && connect(c, reserveStaysQueued(queries.shift())) ${MARK}`],
    [
      "  function onclose(c, e) {",
      "  function reserveStaysQueued(query) {\n    query.reserve && queries.push(query)\n    return query\n  }\n\n  function onclose(c, e) {",
    ],
    // A reserve() whose connection failed to open is rejected (as the connection's first query is): it leaves the
    // queue, or a later open connection is handed to the settled promise and lost to the pool.
    [
      "        const query = { reserve: resolve, reject }",
      `        const query = { reserve: resolve, reject: (err) => (queries.remove(query), reject(err)) } ${MARK}`,
    ],
  ],
};

const root = fileURLToPath(new URL("../node_modules/postgres/", import.meta.url));
if (!existsSync(join(root, "package.json"))) process.exit(0); // not installed: nothing to patch
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
if (version !== "3.4.9")
  throw new Error(
    `scripts/patch-postgres.mjs is written for postgres 3.4.9, found ${version}: check whether #1208 is fixed upstream, then update or remove the patch`,
  );

for (const [file, edits] of Object.entries(EDITS)) {
  for (const variant of ["", "cjs/", "cf/"]) {
    const path = join(root, variant + file);
    if (!existsSync(path)) continue;
    let text = readFileSync(path, "utf8");
    const before = text;
    for (const [from, to] of edits) {
      if (text.includes(to)) continue; // patched by an earlier install
      if (!text.includes(from)) throw new Error(`scripts/patch-postgres.mjs: ${variant}${file} does not contain the text to patch:\n${from}`);
      text = text.replace(from, to);
    }
    if (text !== before) writeFileSync(path, text);
  }
}
