import type { Metadata } from "next";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AddChannelDialog } from "@/components/channels/add-channel-dialog";
import { CallbackSecretCard } from "@/components/channels/callback-secret-card";
import { ChannelRowActions } from "@/components/channels/channel-row-actions";
import { TelegramBotCard } from "@/components/channels/telegram-bot-card";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listChannels } from "@/lib/channels/list-channels";
import { relayFor } from "@/lib/mail/outbound/relay-config";
import { telegramStatus } from "@/lib/telegram/telegram-status";
import {
  addEmailChannelAction,
  addTelegramChannelAction,
  approveChannelAction,
  removeBotTokenAction,
  removeChannelAction,
  revealCallbackSecretAction,
  rotateCallbackSecretAction,
  setBotTokenAction,
} from "./actions";

export const metadata: Metadata = { title: "Channels" };

const statusBadge = {
  active: <Badge variant="success">active</Badge>,
  awaiting_approval: <Badge variant="warning">awaiting your approval</Badge>,
  unverified: <Badge variant="outline">waiting for verification</Badge>,
  removed: <Badge variant="secondary">removed</Badge>,
};

const how = {
  owner: "This dashboard",
  // The project's channels reach its owner, who sees their addresses whole; agents' tools keep them masked.
  email: (address: string | null) => address ?? "—",
  telegram: (chat: string | null) => (chat ? "Linked chat" : "Not linked yet"),
};

export default async function ChannelsPage() {
  const { project } = await requireOwner();
  const db = await getDb();
  // A relay whose stored password cannot be read still counts as set: its own error says what to fix.
  const [channels, telegram, relayReady] = await Promise.all([
    listChannels(db, project.id),
    telegramStatus(db, project.id),
    relayFor(db, project.id).then(Boolean, () => true),
  ]);
  return (
    <>
      <PageHeader
        title="Channels"
        description="Where people receive requests. Email and Telegram channels prove their address or chat first; the ones you add are then active, the ones an agent adds wait for your approval."
        actions={
          <AddChannelDialog
            telegramReady={telegram.configured}
            relayReady={relayReady}
            addEmailAction={addEmailChannelAction}
            addTelegramAction={addTelegramChannelAction}
          />
        }
      />
      <div className="grid grid-cols-1 gap-6">
        <div className="rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="pl-4">Label</TableHead>
                <TableHead>Kind</TableHead>
                <TableHead>Reaches</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Added</TableHead>
                <TableHead className="w-40 pr-4">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {channels.map((c) => (
                <TableRow key={c.id} data-channel-id={c.id}>
                  <TableCell className="pl-4 font-medium">
                    <UntrustedText text={c.label} />
                    <span className="block font-mono text-xs font-normal text-muted-foreground">{c.id}</span>
                  </TableCell>
                  <TableCell>{c.kind}</TableCell>
                  <TableCell className="text-muted-foreground">
                    {c.kind === "owner" ? how.owner : c.kind === "email" ? how.email(c.address) : how.telegram(c.telegramChatId)}
                  </TableCell>
                  <TableCell>{statusBadge[c.status]}</TableCell>
                  <TableCell className="text-muted-foreground">
                    <RelativeTime date={c.createdAt} />
                    {c.createdBy && <span className="block text-xs">by {c.createdBy}</span>}
                  </TableCell>
                  <TableCell className="pr-4">
                    {c.kind === "owner" ? (
                      <span className="block text-right text-xs text-muted-foreground">Always active</span>
                    ) : (
                      <ChannelRowActions
                        channelId={c.id}
                        label={c.label}
                        status={c.status}
                        approveAction={approveChannelAction}
                        removeAction={removeChannelAction}
                      />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <TelegramBotCard status={telegram} setAction={setBotTokenAction} removeAction={removeBotTokenAction} />
          <CallbackSecretCard revealAction={revealCallbackSecretAction} rotateAction={rotateCallbackSecretAction} />
        </div>
      </div>
    </>
  );
}
