const started = performance.now();

/** A progress line, `[chaos] <seconds since start> <message>`, so a CI log shows where the time went. */
export function log(message: string) {
  console.log(`[chaos] ${((performance.now() - started) / 1000).toFixed(1).padStart(5)}s ${message}`);
}
