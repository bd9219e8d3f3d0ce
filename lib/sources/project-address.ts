import { env } from "@/lib/env";

/**
 * The project's address for email sources. Until the mail module owns mail domains, it is the project id at the
 * public host; mail for it becomes `email.received` events through emitEvent.
 */
export function projectAddress(projectId: string): string {
  const host = new URL(env().publicUrl).hostname;
  return `${projectId.toLowerCase().replace(/_/g, "-")}@${host}`;
}
