import { MessageStatusBadge } from "@/components/mail/message-status-badge";
import type { DeliveryView } from "@/components/mail/outbound-deliveries";
import type { MessageStatus } from "@/lib/db/schema/mail";
import { UntrustedText } from "@/components/ui/untrusted-text";

/**
 * A message's deliveries (one per local mailbox, one relay SMTP transaction for the outside recipients): route,
 * status, recipients, attempts, the relay's answer or last error, and each recipient the relay refused with its
 * answer. Shared by the Outbound table's rows and the message's detail view.
 */
export function OutboundDeliveryList({ list }: { list: DeliveryView[] }) {
  return (
    <ul aria-label="Deliveries" className="mt-1 grid gap-1 font-sans">
      {list.map((d) => (
        <li key={d.id} data-delivery-id={d.id} className="grid min-w-0 gap-0.5 rounded-md bg-muted/40 px-2 py-1 text-xs">
          <span className="flex flex-wrap items-center gap-1.5">
            <span className="font-medium">{d.route === "local" ? "Local" : "Relay"}</span>
            <MessageStatusBadge status={d.status as MessageStatus} />
            <span className="font-mono break-all text-muted-foreground">{d.recipients.join(", ")}</span>
            {d.attempts > 1 && <span className="text-muted-foreground">{d.attempts} attempts</span>}
          </span>
          {(d.lastError ?? d.response) && (
            <span className={d.lastError ? "break-words text-destructive" : "break-words text-muted-foreground"} title={d.lastError ?? d.response ?? undefined}>
              <UntrustedText text={d.lastError ?? d.response ?? ""} />
            </span>
          )}
          {d.rejected.length > 0 && (
            <span className="break-words text-destructive">
              Refused:{" "}
              {d.rejected.map((r) => (
                <span key={r.recipient} className="mr-2">
                  <span className="font-mono">{r.recipient}</span> ({r.response})
                </span>
              ))}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
