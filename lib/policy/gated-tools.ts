/** The tools whose calls the policy decides; a module of its own, with no imports, so the dashboard's client code can list them. */
export const gatedTools = ["email_send", "file_url", "send_message", "reply_to_message", "forward_message", "send_draft"] as const;
export type GatedTool = (typeof gatedTools)[number];
