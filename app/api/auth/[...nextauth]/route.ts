import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth-options";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => NextAuth(authOptions())(req, ctx);
export { handler as GET, handler as POST };
