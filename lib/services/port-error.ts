/** A startup failure whose message is the whole story: printed as one line, then the process exits 1. */
export class StartupError extends Error {}

/**
 * The one line to print when a listener cannot take its port, naming the port and the variable that sets it, or the
 * error itself when it is not about the port. `label` is "Port" or "SMTP port"; `hint` says what else may be set.
 */
export function portError(err: unknown, opts: { label: string; port: number; variable: string; hint?: string }): Error {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const fix = `set ${opts.variable} to another port${opts.hint ? `, ${opts.hint}` : ""}`;
  if (code === "EADDRINUSE") return new StartupError(`${opts.label} ${opts.port} is in use (${fix}).`);
  if (code === "EACCES") return new StartupError(`${opts.label} ${opts.port} needs privileges this process does not have (${fix}).`);
  return err instanceof Error ? err : new Error(String(err));
}
