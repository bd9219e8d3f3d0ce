import type { ApprovalChannel } from "@/lib/db/schema/approvals";
import { AppError } from "@/lib/errors";

/** The request's `approvers` must be channels of this project that are active now. */
export function checkApprovers(requested: readonly string[] | undefined, channels: readonly ApprovalChannel[]): void {
  if (!requested?.length) return;
  const problems: { field: string; message: string }[] = [];
  requested.forEach((id, i) => {
    const c = channels.find((x) => x.id === id);
    if (!c) problems.push({ field: `approvers.${i}`, message: `${id} is not a channel of this project` });
    else if (c.status !== "active") problems.push({ field: `approvers.${i}`, message: `${id} (${c.label}) is not active: ${c.status.replace("_", " ")}` });
  });
  if (problems.length === 0) return;
  throw new AppError("validation_error", problems.map((p) => `${p.field}: ${p.message}`).join("; "), {
    fix: "Pass ids of active channels (channel_list shows each channel's status), or leave approvers out to ask every active channel.",
    details: problems,
  });
}
