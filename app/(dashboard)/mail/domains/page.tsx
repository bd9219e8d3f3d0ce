import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AddDomainDialog } from "@/components/mail/add-domain-dialog";
import { DomainActions } from "@/components/mail/domain-actions";
import { MailTabs } from "@/components/mail/mail-tabs";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listDomains } from "@/lib/mail/domains/list-domains";
import { addDomainAction, checkDnsAction, removeDomainAction } from "../actions";

export const metadata: Metadata = { title: "Mail domains" };

export default async function MailDomainsPage() {
  const { actor } = await requireOwner();
  const domains = await listDomains(await getDb(), { projectId: actor.projectId });

  return (
    <>
      <PageHeader
        title="Mailboxes"
        description="The domains Brynth receives and signs mail for, and the DNS records each needs."
        actions={<AddDomainDialog addAction={addDomainAction} />}
      >
        <MailTabs current="/mail/domains" />
      </PageHeader>
      <div className="grid grid-cols-1 gap-4">
        {domains.map((d) => {
          const checked = new Map((d.dnsCheck?.records ?? []).map((r) => [r.kind, r]));
          return (
            <Card key={d.id} data-domain={d.domain}>
              <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-4">
                <div className="grid min-w-0 gap-1">
                  <CardTitle className="flex flex-wrap items-center gap-2 text-sm">
                    <span className="font-mono break-all">{d.domain}</span>
                    {d.isDefault && <Badge variant="secondary">Default</Badge>}
                    {d.verified ? <Badge variant="success">Receiving</Badge> : <Badge variant="warning">Not verified</Badge>}
                  </CardTitle>
                  <CardDescription>
                    {d.isDefault
                      ? "This instance's domain (MAIL_DOMAIN): project addresses live here. Publish these records so other servers deliver to it and trust its mail."
                      : d.verified
                        ? "Verified: mail to its mailboxes is accepted and outbound mail is signed with its key."
                        : "Publish the records below, then check DNS: the domain is verified once its DKIM record matches."}
                    {d.dnsCheck && (
                      <>
                        {" "}
                        Last checked <RelativeTime date={d.dnsCheck.checked_at} />.
                      </>
                    )}
                  </CardDescription>
                </div>
                <DomainActions domainId={d.id} domain={d.domain} removable={!d.isDefault} checkAction={checkDnsAction} removeAction={removeDomainAction} />
              </CardHeader>
              <CardContent>
                <Table>
                  <TableHeader>
                    <TableRow>
                      <TableHead className="w-20">Record</TableHead>
                      <TableHead className="w-16">Type</TableHead>
                      <TableHead>Name</TableHead>
                      <TableHead>Value</TableHead>
                      <TableHead className="w-40">Status</TableHead>
                    </TableRow>
                  </TableHeader>
                  <TableBody>
                    {d.records.map((r) => {
                      const c = checked.get(r.kind);
                      return (
                        <TableRow key={r.kind}>
                          <TableCell className="font-medium" title={r.why}>
                            {r.kind}
                          </TableCell>
                          <TableCell className="font-mono text-xs">{r.type}</TableCell>
                          <TableCell className="max-w-[16rem]">
                            <div className="flex items-center gap-1">
                              <code className="truncate font-mono text-xs" title={r.name}>
                                {r.name}
                              </code>
                              <CopyButton value={r.name} label={`Copy the ${r.kind} record name`} size="icon-xs" />
                            </div>
                          </TableCell>
                          <TableCell className="max-w-[24rem]">
                            <div className="flex items-center gap-1">
                              <code className="truncate font-mono text-xs text-muted-foreground" title={r.value}>
                                {r.value}
                              </code>
                              <CopyButton value={r.value} label={`Copy the ${r.kind} record value`} size="icon-xs" />
                            </div>
                          </TableCell>
                          <TableCell className="text-xs">
                            {!c ? (
                              <span className="text-muted-foreground">not checked</span>
                            ) : c.ok ? (
                              <Badge variant="success">ok</Badge>
                            ) : (
                              <span className="text-destructive" title={c.found.join("\n") || undefined}>
                                {c.note}
                              </span>
                            )}
                          </TableCell>
                        </TableRow>
                      );
                    })}
                  </TableBody>
                </Table>
              </CardContent>
            </Card>
          );
        })}
      </div>
    </>
  );
}
