import { postEmailDecision } from "@/lib/approvals/http/post-email-decision";

/** The decision form of an emailed link's page (the page itself only shows; this POST decides). */
export async function POST(req: Request, ctx: { params: Promise<{ token: string }> }) {
  return postEmailDecision(req, (await ctx.params).token);
}
