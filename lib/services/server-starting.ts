const g = globalThis as { __brynthStarting?: boolean };

/**
 * True from the moment server.ts listens until the background services have started (start-services.ts): the
 * port must be taken first, so a taken one ends the start before anything else is, but an instance whose mail
 * listener, jobs or channels may still fail to start is not yet one to send traffic to (readiness.ts). Never set
 * in tests and under a bare route handler, which have no services to wait for. On globalThis for the reason
 * server-stopping.ts gives.
 */
export function serverStarting(): boolean {
  return g.__brynthStarting === true;
}

export function markStarting(starting: boolean): void {
  g.__brynthStarting = starting;
}
