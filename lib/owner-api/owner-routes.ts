import type { OwnerRoute } from "@/lib/owner-api/define-owner-route";
import { createKeyRoute, listKeysRoute, revokeKeyRoute } from "@/lib/owner-api/keys";
import { createProjectRoute, deleteProjectRoute, listProjectsRoute, renameProjectRoute } from "@/lib/owner-api/projects";
import { changePasswordRoute } from "@/lib/owner-api/password";
import { addSourceRoute, listSourcesRoute, removeSourceRoute, rotateSourceSecretRoute, testSourceRoute } from "@/lib/owner-api/sources";
import {
  addChannelRoute,
  approveChannelRoute,
  listChannelsRoute,
  removeBotTokenRoute,
  removeChannelRoute,
  revealCallbackSecretRoute,
  rotateCallbackSecretRoute,
  setBotTokenRoute,
  telegramStatusRoute,
} from "@/lib/owner-api/channels";
import { addDomainRoute, checkDomainRoute, listDomainsRoute, removeDomainRoute } from "@/lib/owner-api/mail-domains";
import { getRelayRoute, removeRelayRoute, setRelayRoute, testRelayRoute } from "@/lib/owner-api/mail-relay";
import { endSessionRoute, listSessionsRoute } from "@/lib/owner-api/sessions";
import { listFileLinksRoute, revokeFileLinkRoute } from "@/lib/owner-api/file-links";
import { requeueEventsRoute } from "@/lib/owner-api/events";
import { exportLedgerRoute } from "@/lib/owner-api/ledger-export";
import { decideRequestRoute } from "@/lib/owner-api/approvals";
import { approveDraftRoute, rejectDraftRoute } from "@/lib/owner-api/drafts";
import { resolveUnknownRoute } from "@/lib/owner-api/resolve-unknown";
import { setSendPolicyRoute } from "@/lib/owner-api/send-policy";
import { addListEntryRoute, listListEntriesRoute, removeListEntryRoute } from "@/lib/owner-api/mail-lists";
import { listWebhookAttemptsRoute, resendDeliveryRoute, sendTestEventRoute } from "@/lib/owner-api/webhook-deliveries";
import {
  createWebhookRoute,
  deleteWebhookRoute,
  getWebhookHeadersRoute,
  getWebhookRoute,
  listWebhooksRoute,
  rotateWebhookSecretRoute,
  updateWebhookHeadersRoute,
  updateWebhookRoute,
} from "@/lib/owner-api/webhooks";
import { listGrantsRoute, revokeGrantRoute } from "@/lib/owner-api/oauth-grants";
import { getRemoteAccessRoute, setRemoteAccessRoute } from "@/lib/owner-api/remote-access";
import { deleteQuarantinedRoute, listQuarantineRoute, listRejectionsRoute, releaseQuarantinedRoute } from "@/lib/owner-api/quarantine";
import {
  applyPolicyDraftRoute,
  deletePolicyDraftRoute,
  getPolicyDraftRoute,
  policyHistoryRoute,
  putPolicyDraftRoute,
  revertPolicyRoute,
  simulatePolicyRoute,
} from "@/lib/owner-api/policy";

// biome-ignore lint/suspicious/noExplicitAny: routes with different schemas (and prepared answers) share this list; OwnerRoute's defaults would refuse them (the handler takes I's output)
export const ownerRoutes: readonly OwnerRoute<any, any, any>[] = [
  createKeyRoute,
  listKeysRoute,
  revokeKeyRoute,
  listProjectsRoute,
  createProjectRoute,
  renameProjectRoute,
  deleteProjectRoute,
  listSourcesRoute,
  addSourceRoute,
  removeSourceRoute,
  testSourceRoute,
  rotateSourceSecretRoute,
  listChannelsRoute,
  addChannelRoute,
  approveChannelRoute,
  removeChannelRoute,
  telegramStatusRoute,
  setBotTokenRoute,
  removeBotTokenRoute,
  revealCallbackSecretRoute,
  rotateCallbackSecretRoute,
  listDomainsRoute,
  addDomainRoute,
  checkDomainRoute,
  removeDomainRoute,
  getRelayRoute,
  setRelayRoute,
  removeRelayRoute,
  testRelayRoute,
  listSessionsRoute,
  endSessionRoute,
  listFileLinksRoute,
  revokeFileLinkRoute,
  changePasswordRoute,
  requeueEventsRoute,
  exportLedgerRoute,
  decideRequestRoute,
  approveDraftRoute,
  rejectDraftRoute,
  listQuarantineRoute,
  releaseQuarantinedRoute,
  deleteQuarantinedRoute,
  listRejectionsRoute,
  setSendPolicyRoute,
  listListEntriesRoute,
  addListEntryRoute,
  removeListEntryRoute,
  resolveUnknownRoute,
  listWebhooksRoute,
  getWebhookRoute,
  createWebhookRoute,
  updateWebhookRoute,
  deleteWebhookRoute,
  rotateWebhookSecretRoute,
  getWebhookHeadersRoute,
  updateWebhookHeadersRoute,
  sendTestEventRoute,
  listWebhookAttemptsRoute,
  resendDeliveryRoute,
  listGrantsRoute,
  revokeGrantRoute,
  getRemoteAccessRoute,
  setRemoteAccessRoute,
  getPolicyDraftRoute,
  putPolicyDraftRoute,
  deletePolicyDraftRoute,
  simulatePolicyRoute,
  applyPolicyDraftRoute,
  policyHistoryRoute,
  revertPolicyRoute,
];
