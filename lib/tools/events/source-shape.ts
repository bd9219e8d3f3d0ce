import { z } from "zod";
import { sourceTypes, verifications } from "@/lib/db/schema/events";

export const sourceShape = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(sourceTypes),
  verification: z.enum(verifications).nullable(),
  signature_header: z.string().nullable(),
  url: z.string().nullable().describe("Webhook sources: the URL to paste in the provider."),
  address: z.string().nullable().describe("Email sources: the project address."),
  created_at: z.string(),
});
