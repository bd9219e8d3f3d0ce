import { handleBlob } from "@/lib/disk/http/handle-blob";

// server.ts serves /blob/* on the fast path with the same handler; this route serves `next dev` and any other way in.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export { handleBlob as GET, handleBlob as HEAD, handleBlob as PUT, handleBlob as OPTIONS };
