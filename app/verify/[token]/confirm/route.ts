import { postVerify } from "@/lib/channels/http/post-verify";

/** The confirm button of an email channel's verification page. */
export async function POST(req: Request, ctx: { params: Promise<{ token: string }> }) {
  return postVerify(req, (await ctx.params).token);
}
