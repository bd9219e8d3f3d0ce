import type { Metadata } from "next";
import { Webhook } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/ui/copy-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AddSourceDialog } from "@/components/sources/add-source-dialog";
import { SourceActions } from "@/components/sources/source-actions";
import { verificationOptions } from "@/components/sources/verification-help";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listSources } from "@/lib/sources/list-sources";
import { sourceActivity } from "@/lib/sources/source-activity";
import { addSourceAction, removeSourceAction, rotateSecretAction, sendTestEventAction } from "./actions";

export const metadata: Metadata = { title: "Sources" };

const verificationLabel = (v: string | null) => verificationOptions.find((o) => o.value === v)?.label ?? "—";

export default async function SourcesPage() {
  const { actor } = await requireOwner();
  const db = await getDb();
  const sources = await listSources(db, { actor });
  const activity = await sourceActivity(db, { projectId: actor.projectId, names: sources.map((s) => s.name) });

  return (
    <>
      <PageHeader
        title="Sources"
        description="Where events come from: signed webhooks from providers, and mail to the project address."
        actions={sources.length > 0 && <AddSourceDialog addAction={addSourceAction} />}
      />
      {sources.length === 0 ? (
        <EmptyState
          icon={Webhook}
          title="No sources yet"
          description="Add a webhook source, paste its URL into Stripe, GitHub or any sender, and verified deliveries arrive as events your agents can claim."
          action={<AddSourceDialog addAction={addSourceAction} label="Add your first source" />}
        />
      ) : (
        <div className="rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Source</TableHead>
                <TableHead>Verification</TableHead>
                <TableHead className="text-right">Pending</TableHead>
                <TableHead>Last event</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {sources.map((s) => {
                const a = activity.get(s.name);
                const target = s.url ?? s.address ?? "";
                return (
                  <TableRow key={s.id}>
                    <TableCell className="max-w-[26rem]">
                      <div className="font-medium">{s.name}</div>
                      <div className="flex items-center gap-1">
                        <code className="truncate font-mono text-xs text-muted-foreground" title={target}>
                          {target}
                        </code>
                        <CopyButton value={target} label={`Copy the ${s.url ? "URL" : "address"} of ${s.name}`} size="icon-xs" />
                      </div>
                    </TableCell>
                    <TableCell>
                      {s.type === "email" ? (
                        <Badge variant="secondary">Email</Badge>
                      ) : (
                        <Badge variant={s.verification === "none" ? "warning" : "outline"}>{verificationLabel(s.verification)}</Badge>
                      )}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{a?.pending ?? 0}</TableCell>
                    <TableCell className="text-muted-foreground">{a?.lastReceivedAt ? <RelativeTime date={a.lastReceivedAt} /> : "never"}</TableCell>
                    <TableCell>
                      <SourceActions
                        name={s.name}
                        sourceId={s.id}
                        verification={s.type === "webhook" ? s.verification : null}
                        testAction={sendTestEventAction}
                        removeAction={removeSourceAction}
                        rotateAction={rotateSecretAction}
                      />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </>
  );
}
