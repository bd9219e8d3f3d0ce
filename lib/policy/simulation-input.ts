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
    recipients: z.array(z.email()).max(50).optional().describe("The recipients of a mail tool (email_send, send_message, …)."),
  })
  .strict()
  // Only what the real request can carry: a simulation that used an amount a tool call never has, or recipients
  // an ask_approval never has, answered what no real call would get.
  .superRefine((s, ctx) => {
    const refuse = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
    if (s.tool) {
      if (s.action !== undefined) refuse("action", "a tool call's action is its tool's name; leave action out");
      if (s.risk !== undefined) refuse("risk", "a tool call is always medium risk; leave risk out");
      if (s.amount !== undefined) refuse("amount", "a tool call carries no amount; only ask_approval does");
      if (s.tool === "file_url" && s.recipients !== undefined) refuse("recipients", "file_url has no recipients");
    } else if (s.recipients !== undefined) {
      refuse("recipients", "ask_approval has no recipients; pick a mail tool");
    }
  });
