import { handleHook } from "@/lib/http/intake/handle-hook";

// Signed payload downloads (inbox_claim's payload_url); server.ts serves them on the fast path too.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export { handleHook as GET, handleHook as HEAD };
