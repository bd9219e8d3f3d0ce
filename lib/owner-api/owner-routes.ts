import type { OwnerRoute } from "@/lib/owner-api/define-owner-route";
import { createKeyRoute, listKeysRoute, revokeKeyRoute } from "@/lib/owner-api/keys";
import { listProjectsRoute } from "@/lib/owner-api/projects";
import { decideRequestRoute } from "@/lib/owner-api/approvals";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const ownerRoutes: readonly OwnerRoute<any, any>[] = [createKeyRoute, listKeysRoute, revokeKeyRoute, listProjectsRoute, decideRequestRoute];
