// A path of the route table (lib/http/routes.ts), which server.ts serves directly; this file serves every other way in.
export { DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT } from "@/lib/http/routes";
