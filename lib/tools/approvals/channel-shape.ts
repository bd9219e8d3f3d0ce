import { z } from "zod";
import { channelKinds, channelStatuses } from "@/lib/db/schema/approvals";

export const channelShape = z.object({
  id: z.string(),
  kind: z.enum(channelKinds),
  label: z.string(),
  status: z.enum(channelStatuses),
  active: z.boolean().describe("Only active channels receive requests and may be passed as `approvers`."),
  address: z.string().nullable().describe("Email channels: the address, masked."),
  created_at: z.string(),
});
