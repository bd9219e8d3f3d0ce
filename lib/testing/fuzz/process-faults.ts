/**
 * Faults of the server process that no response shows: an unhandled rejection or exception, and what the server
 * logs as unexpected (`toErrorBody`'s "[brynth] unexpected error", a failed background task). The fuzz tests run
 * the server in their own process, so they see them here. `take()` returns and clears what was seen since.
 */
export function watchProcessFaults() {
  const seen: string[] = [];
  const onFault = (kind: string) => (err: unknown) => seen.push(`${kind}: ${describe(err)}`);
  const rejection = onFault("unhandledRejection");
  const exception = onFault("uncaughtException");
  process.on("unhandledRejection", rejection);
  process.on("uncaughtException", exception);
  const consoleError = console.error;
  console.error = (...args: unknown[]) => {
    if (typeof args[0] === "string" && /^\[brynth\] (unexpected error|background task failed)/.test(args[0])) {
      seen.push(`${args[0]} ${args.slice(1).map(describe).join(" ")}`);
    }
    consoleError(...args);
  };
  return {
    take(): string[] {
      return seen.splice(0);
    },
    stop() {
      process.off("unhandledRejection", rejection);
      process.off("uncaughtException", exception);
      console.error = consoleError;
    },
  };
}

const describe = (err: unknown) => (err instanceof Error ? (err.stack ?? err.message).split("\n").slice(0, 4).join(" | ") : String(err).slice(0, 300));
