import type { ApprovalChannel } from "@/lib/db/schema/approvals";

/** `mario.rossi@example.com` → `m***i@example.com`: enough to recognise, not enough to harvest. */
export function maskAddress(address: string | null): string | null {
  if (!address) return null;
  const at = address.lastIndexOf("@");
  if (at < 1) return "***";
  const local = address.slice(0, at);
  const masked = local.length <= 2 ? `${local[0]}***` : `${local[0]}***${local[local.length - 1]}`;
  return `${masked}${address.slice(at)}`;
}

export function channelView(c: ApprovalChannel) {
  return {
    id: c.id,
    kind: c.kind,
    label: c.label,
    status: c.status,
    active: c.status === "active",
    address: maskAddress(c.address),
    created_at: c.createdAt.toISOString(),
  };
}
export type ChannelView = ReturnType<typeof channelView>;

/** How a channel signs its decisions in `decided_by`. */
export const channelDecider = (c: Pick<ApprovalChannel, "kind" | "label">, ownerEmail?: string | null) =>
  c.kind === "owner" ? `owner:${ownerEmail ?? "owner"}` : `channel:${c.label}`;
