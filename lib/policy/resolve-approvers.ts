export interface ChannelState {
  id: string;
  kind: "owner" | "email" | "telegram";
  active: boolean;
}

/**
 * Who is asked or told (spec, policy_get): the rule's active `approvers`, or the owner channel if none of them is
 * active; for a rule without `approvers` (or no rule), the request's `approvers`, else every active channel.
 * The request's own approvers were checked active by the caller. Owner first, then in channel order.
 */
export function resolveApprovers(opts: {
  ruleApprovers: readonly string[] | undefined;
  requested: readonly string[] | undefined;
  channels: readonly ChannelState[];
}): string[] {
  const owner = opts.channels.find((c) => c.kind === "owner");
  const active = opts.channels.filter((c) => c.active);
  const pick = (ids: readonly string[]) => active.filter((c) => ids.includes(c.id)).map((c) => c.id);
  if (opts.ruleApprovers?.length) {
    const chosen = pick(opts.ruleApprovers);
    return chosen.length ? chosen : owner ? [owner.id] : [];
  }
  if (opts.requested?.length) return pick(opts.requested);
  return active.map((c) => c.id);
}
