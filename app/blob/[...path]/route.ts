import { nextHandler } from "@/lib/http/routes";

// A path of the route table (lib/http/routes.ts), which server.ts serves directly; this file serves every other way in.
export const dynamic = "force-dynamic";
export const runtime = "nodejs";
export {
  nextHandler as GET,
  nextHandler as HEAD,
  nextHandler as POST,
  nextHandler as PUT,
  nextHandler as PATCH,
  nextHandler as DELETE,
  nextHandler as OPTIONS,
};
