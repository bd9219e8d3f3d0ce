import { handleHook } from "@/lib/http/intake/handle-hook";

// server.ts dispatches /hooks/* to the same handler directly; this route serves any other way in.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export { handleHook as POST, handleHook as GET, handleHook as PUT, handleHook as PATCH, handleHook as DELETE };
