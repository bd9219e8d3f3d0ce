import { AppError } from "@/lib/errors";
import type { EventState } from "@/lib/events/event-state";

/** Why an ack or nack found no lease of this caller: never claimed (NOT_CLAIMED) or someone else's now (LEASE_LOST). */
export function leaseError(state: EventState, verb: "ack" | "nack"): AppError {
  if (state.stored === "claimed" || state.stored === "done") {
    return new AppError(
      "LEASE_LOST",
      `You do not hold the lease on event ${state.id}: ${
        state.stored === "done" ? "another consumer finished it" : "another consumer claimed it after your lease expired"
      }.`,
      {
        fix: "Do not repeat its side effects; continue with other events (inbox_list).",
      },
    );
  }
  return new AppError("NOT_CLAIMED", `Event ${state.id} is not claimed (status ${state.status}); only a claimed event can be ${verb}ed.`, {
    fix: "Claim it first with inbox_claim, then ack or nack it with the same key.",
  });
}
