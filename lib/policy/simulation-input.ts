import { z } from "zod";
import { riskLevels } from "@/lib/db/schema/approvals";
import { gatedTools } from "@/lib/policy/policy-schema";

/** The simulator's request, the same from the Policy screen and over owner REST. */
export const simulationInput = z
  .object({
    action: z.string().trim().max(100).optional().describe("ask_approval's `action`, e.g. `refund`."),
    tool: z.enum(gatedTools).optional().describe("A tool call instead of ask_approval, e.g. `email_send`."),
    risk: z.enum(riskLevels).optional().describe("ask_approval's `risk`; default medium."),
    amount: z.number().finite().optional().describe("ask_approval's `amount`."),
    recipients: z.array(z.email()).max(50).optional().describe("email_send's recipients."),
  })
  .strict();
