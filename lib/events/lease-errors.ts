import { AppError } from "@/lib/errors";
import { type EventState, sameKey } from "@/lib/events/event-state";

/**
 * Why an ack or nack found no lease of this caller: never claimed (NOT_CLAIMED) or someone else's now (LEASE_LOST).
 * A token-less call from another session or agent identity of the claiming key is told why, and how to pass the token.
 */
export function leaseError(state: EventState, verb: "ack" | "nack", holder: string, leaseToken?: string): AppError {
  if (state.stored === "claimed" || state.stored === "done") {
    const done = state.stored === "done";
    if (!leaseToken && state.claimedBy && state.claimedBy !== holder && sameKey(state.claimedBy, holder)) {
      return new AppError(
        "LEASE_LOST",
        `You do not hold the lease on event ${state.id}: it was ${done ? "finished" : "claimed"} by another MCP session or agent identity of this key. Without a lease_token, an ${verb} settles only a claim made in the same MCP session (over REST, with the same X-Brynth-Agent).`,
        {
          fix: `Pass the lease_token from your claim (inbox_claim returned it) to inbox_${verb}: it is the only exact fence. If your lease expired and another worker claimed the event, do not repeat its side effects; continue with other events (inbox_list).`,
        },
      );
    }
    // The caller's own doing (an earlier ack or nack, or a newer claim of its own): said so, not blamed on another.
    if (state.claimedBy === holder) {
      return new AppError(
        "LEASE_LOST",
        done
          ? `You do not hold the lease on event ${state.id}: you finished it already (an earlier inbox_ack or inbox_nack of yours).`
          : `You do not hold the lease on event ${state.id} with this lease_token: you claimed it again since, and that claim holds the lease.`,
        { fix: done ? "Nothing to do: it is finished." : "Use the lease_token of your latest claim (inbox_claim returned it)." },
      );
    }
    return new AppError(
      "LEASE_LOST",
      `You do not hold the lease on event ${state.id}: ${done ? "another consumer finished it" : "another consumer claimed it after your lease expired"}.`,
      {
        fix: "Do not repeat its side effects; continue with other events (inbox_list).",
      },
    );
  }
  return new AppError("NOT_CLAIMED", `Event ${state.id} is not claimed (status ${state.status}); only a claimed event can be ${verb}ed.`, {
    fix: "Claim it first with inbox_claim, then ack or nack it in the same session (or pass the claim's lease_token).",
  });
}
