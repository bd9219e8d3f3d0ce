import type { ActionResult } from "@/lib/auth/owner-action";

export type Action<I, O = unknown> = (input: I) => Promise<ActionResult<O>>;

export interface AddedChannel {
  channel_id: string;
  label: string;
  link: string | null;
  address: string | null;
  expires_at: string;
}
