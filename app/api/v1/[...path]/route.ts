import { handleRest } from "@/lib/tools/adapters/rest";

// server.ts dispatches /api/v1/* to the same handler directly; this route serves `next dev` and any other way in.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export { handleRest as GET, handleRest as POST, handleRest as PUT, handleRest as PATCH, handleRest as DELETE };
