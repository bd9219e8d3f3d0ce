import type { Metadata } from "next";
import Link from "next/link";
import { KeyRound } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { CreateKeyDialog } from "@/components/api-keys/create-key-dialog";
import { KeyMailbox } from "@/components/api-keys/key-mailbox";
import { RevokeKeyButton } from "@/components/api-keys/revoke-key-button";
import { ScopeBadges } from "@/components/api-keys/scope-badges";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { keyRestrictions } from "@/lib/keys/key-restrictions";
import { listKeys } from "@/lib/keys/list-keys";
import { pickerMailboxes } from "@/lib/mail/mailboxes/mailbox-choices";
import { createKeyAction, revokeKeyAction } from "./actions";
import { publicUrl } from "@/lib/settings/remote-access";
import { pageParams } from "@/lib/http/page-params";

export const metadata: Metadata = { title: "API keys" };

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function ApiKeysPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const params = pageParams(await searchParams);
  const showRevoked = params.revoked === "1";
  // `?unused=30`: the Overview's "keys unused for 30 days" lands on exactly those keys (1 to 365 days).
  const unusedDays = /^\d{1,3}$/.test(params.unused ?? "") && Number(params.unused) >= 1 && Number(params.unused) <= 365 ? Number(params.unused) : undefined;
  const db = await getDb();
  const keys = await listKeys(db, {
    actor,
    includeRevoked: showRevoked && !unusedDays,
    unusedSince: unusedDays ? new Date(Date.now() - unusedDays * 24 * 3600_000) : undefined,
  });
  const restrictions = await keyRestrictions(
    db,
    actor.projectId,
    keys.map((k) => k.mailboxId),
  );
  // The restriction picker lists live mailboxes, oldest (the project address) first; past them the owner types one.
  const picker = await pickerMailboxes(db, actor);
  const mailboxes = picker.options.map((m) => ({ id: m.id, address: m.address, displayName: m.displayName }));
  const create = (
    <CreateKeyDialog
      publicUrl={publicUrl()}
      defaultOpen={params.create === "1"}
      mailboxes={mailboxes}
      moreMailboxes={picker.more}
      createAction={createKeyAction}
    />
  );

  return (
    <>
      <PageHeader title="API keys" description="Keys let agents call Brynth over MCP and REST, limited to their scopes." actions={create} />
      {unusedDays && (
        <p className="mb-3 flex flex-wrap items-center gap-2 text-sm text-muted-foreground" data-testid="keys-filter">
          Showing live keys unused for {unusedDays} days: consider revoking them.
          <Link href="/api-keys" className="underline underline-offset-2">
            Show all keys
          </Link>
        </p>
      )}
      {keys.length === 0 && !showRevoked && !unusedDays ? (
        <EmptyState icon={KeyRound} title="No API keys yet" description="Create a key for each agent, with only the scopes it needs. The key is shown once." />
      ) : (
        <div className="rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="pl-4">Name</TableHead>
                <TableHead>Key</TableHead>
                <TableHead>Scopes</TableHead>
                <TableHead>Mailbox</TableHead>
                <TableHead>Created</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead className="w-20 pr-4">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {keys.map((k) => (
                <TableRow key={k.id} id={k.id} data-key-name={k.name} className={k.revokedAt ? "opacity-60 target:bg-muted" : "target:bg-muted"}>
                  <TableCell className="pl-4 font-medium">{k.name}</TableCell>
                  <TableCell className="font-mono text-xs text-muted-foreground">{k.prefix}…</TableCell>
                  <TableCell className="whitespace-normal">
                    <ScopeBadges scopes={k.scopes} />
                  </TableCell>
                  <TableCell>
                    <KeyMailbox mailboxId={k.mailboxId} restriction={k.mailboxId ? restrictions.get(k.mailboxId) : undefined} />
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    <RelativeTime date={k.createdAt} />
                  </TableCell>
                  <TableCell className="text-muted-foreground">{k.lastUsedAt ? <RelativeTime date={k.lastUsedAt} /> : "Never"}</TableCell>
                  <TableCell className="pr-4 text-right">
                    {k.revokedAt ? <Badge variant="destructive">Revoked</Badge> : <RevokeKeyButton keyId={k.id} name={k.name} revokeAction={revokeKeyAction} />}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
      <div className="mt-3 text-xs">
        <Link href={showRevoked ? "/api-keys" : "/api-keys?revoked=1"} className="text-muted-foreground hover:text-foreground">
          {showRevoked ? "Hide revoked keys" : "Show revoked keys"}
        </Link>
      </div>
      <Card id="connect-oauth" className="mt-6">
        <CardHeader>
          <CardTitle className="text-sm">Connect with OAuth</CardTitle>
          <CardDescription>
            No key to paste: an MCP client that speaks OAuth (Claude Code, the MCP Inspector) needs only the URL. It opens this browser, you choose the project,
            scopes and mailbox, and approve. Connected apps are listed, and revoked, under{" "}
            <Link href="/settings#connected-apps" className="underline underline-offset-2">
              Settings → Connected apps
            </Link>
            .
          </CardDescription>
        </CardHeader>
        <CardContent>
          <CodeBlock language="bash" copyLabel="Copy the OAuth setup command" code={`claude mcp add --transport http brynth ${publicUrl()}/mcp`} />
        </CardContent>
      </Card>
    </>
  );
}
