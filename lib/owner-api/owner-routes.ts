import type { OwnerRoute } from "@/lib/owner-api/define-owner-route";
import { createKeyRoute, listKeysRoute, revokeKeyRoute } from "@/lib/owner-api/keys";
import { listProjectsRoute } from "@/lib/owner-api/projects";
import { decideRequestRoute } from "@/lib/owner-api/approvals";
import { resolveUnknownRoute } from "@/lib/owner-api/resolve-unknown";
import { setSendPolicyRoute } from "@/lib/owner-api/send-policy";
import { deleteQuarantinedRoute, listQuarantineRoute, listRejectionsRoute, releaseQuarantinedRoute } from "@/lib/owner-api/quarantine";

// biome-ignore lint/suspicious/noExplicitAny: routes with different schemas share this list; OwnerRoute's defaults would refuse them (the handler takes I's output)
export const ownerRoutes: readonly OwnerRoute<any, any>[] = [
  createKeyRoute,
  listKeysRoute,
  revokeKeyRoute,
  listProjectsRoute,
  decideRequestRoute,
  listQuarantineRoute,
  releaseQuarantinedRoute,
  deleteQuarantinedRoute,
  listRejectionsRoute,
  setSendPolicyRoute,
  resolveUnknownRoute,
];
