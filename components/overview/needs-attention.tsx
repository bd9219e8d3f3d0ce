import { StatCard } from "@/components/overview/stat-card";
import { type Attention, UNUSED_KEY_DAYS } from "@/lib/overview/needs-attention";

/**
 * "What needs me now": each count opens the screen filtered to exactly the rows it counts. A zero is shown too (and
 * calm), so the owner sees the question was asked and answered, not that a card went missing.
 */
export function NeedsAttention({ counts }: { counts: Attention }) {
  const items = [
    { label: "Pending approvals", value: counts.pendingApprovals, href: "/approvals", hint: "Requests waiting for your decision" },
    { label: "Events pending", value: counts.eventsPending, href: "/events?status=pending", hint: "Waiting for an agent to claim them" },
    { label: "Events dead", value: counts.eventsDead, href: "/events?status=dead", hint: "Out of attempts: requeue or inspect" },
    { label: "Outbound mail failed", value: counts.outboundFailed, href: "/mail/outbound?status=failed", hint: "The relay refused them" },
    { label: "Outbound mail unknown", value: counts.outboundUnknown, href: "/mail/outbound?status=unknown", hint: "Sent or not: the relay did not say" },
    { label: "Webhooks refused, 24 h", value: counts.refusedDeliveries, href: "/events/refused", hint: "Bad signature or unknown source" },
    {
      label: `Keys unused for ${UNUSED_KEY_DAYS} days`,
      value: counts.unusedKeys,
      href: `/api-keys?unused=${UNUSED_KEY_DAYS}`,
      hint: "Revoke what no agent uses",
    },
  ];
  return (
    <section aria-labelledby="needs-attention" className="grid grid-cols-1 gap-2">
      <h2 id="needs-attention" className="text-sm font-medium">
        What needs you now
      </h2>
      <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
        {items.map((item) => (
          <StatCard key={item.label} {...item} attention={item.value > 0} />
        ))}
      </div>
    </section>
  );
}
