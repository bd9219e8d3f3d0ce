import { handleMcp } from "@/lib/tools/adapters/mcp";

// server.ts dispatches /mcp to the same handler directly; this route serves `next dev` and any other way in.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export { handleMcp as POST, handleMcp as GET, handleMcp as DELETE };
