"use server";

import { ownerAction } from "@/lib/auth/owner-action";
import { routeOp } from "@/lib/owner-api/define-owner-route";
import { setRemoteAccessRoute } from "@/lib/owner-api/remote-access";
import { remoteAccessInput } from "@/lib/settings/remote-access-input";
import { remoteAccessView } from "@/lib/settings/remote-access-view";
import { saveRemoteAccess } from "@/lib/settings/save-remote-access";

/** Settings → Remote access: as PUT /owner/settings/remote-access, under its ledger op. */
export const saveRemoteAccessAction = ownerAction(
  remoteAccessInput,
  async (ctx, input) => {
    ctx.subject = "remote_access";
    return remoteAccessView(await saveRemoteAccess(ctx.db, { ownerId: ctx.owner.id, ...input }));
  },
  { op: routeOp(setRemoteAccessRoute) },
);
