import type { Metadata } from "next";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { MailTabs } from "@/components/mail/mail-tabs";
import { RelayForm } from "@/components/mail/relay-form";
import { TestRelayForm } from "@/components/mail/test-relay-form";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { mailHostname } from "@/lib/mail/domains/mail-domain-name";
import { smtpStatus } from "@/lib/mail/inbound/smtp-status";
import { envRelay } from "@/lib/mail/outbound/relay-config";
import { relayView } from "@/lib/mail/relay/save-relay";
import { removeRelayAction, saveRelayAction, testRelayAction } from "../actions";

export const metadata: Metadata = { title: "Mail settings" };

export default async function MailSettingsPage() {
  const { owner, actor } = await requireOwner();
  const relay = await relayView(await getDb(), { projectId: actor.projectId });
  const fromEnv = envRelay();
  const e = env();
  const smtp = smtpStatus();

  return (
    <>
      <PageHeader title="Mailboxes" description="How mail leaves this instance, and how it arrives.">
        <MailTabs current="/mail/settings" />
      </PageHeader>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle className="text-sm">SMTP relay</CardTitle>
            <CardDescription>
              Mail to addresses outside this instance goes through this relay (your provider&apos;s SMTP submission server).
              {fromEnv && !relay && ` Without one here, SMTP_RELAY_URL is used: ${fromEnv.host}:${fromEnv.port}.`}
              {!fromEnv && !relay && " Without one, agents can only write to addresses on this instance."}
            </CardDescription>
          </CardHeader>
          <CardContent>
            <RelayForm
              current={relay ? { ...relay, updatedAt: relay.updatedAt.toISOString() } : null}
              saveAction={saveRelayAction}
              removeAction={removeRelayAction}
            />
          </CardContent>
        </Card>
        <div className="grid content-start gap-4">
          <Card>
            <CardHeader>
              <CardTitle className="text-sm">Send a test message</CardTitle>
              <CardDescription>Sends one DKIM-signed message from the project address through the relay now and shows its answer.</CardDescription>
            </CardHeader>
            <CardContent>
              <TestRelayForm defaultTo={owner.email} testAction={testRelayAction} disabled={!relay && !fromEnv} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle className="text-sm">Inbound and limits</CardTitle>
              <CardDescription>Set by the operator in the environment.</CardDescription>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[12rem_1fr]">
                <dt className="text-muted-foreground">Mail domain</dt>
                <dd className="font-mono text-xs">{e.MAIL_DOMAIN}</dd>
                <dt className="text-muted-foreground">SMTP listener</dt>
                <dd className="text-xs">
                  <span className="font-mono">{e.SMTP_PORT === 0 ? "off (SMTP_PORT=0)" : `${mailHostname()}:${e.SMTP_PORT}`}</span>
                  {smtp?.state === "failed" && <span className="ml-2 text-destructive">not running: {smtp.error}</span>}
                  {smtp?.state === "listening" && <span className="ml-2 text-success">listening</span>}
                </dd>
                <dt className="text-muted-foreground">Largest inbound message</dt>
                <dd>{Math.round(e.MAIL_MAX_MESSAGE_BYTES / 1024 / 1024)} MB</dd>
                <dt className="text-muted-foreground">email_send limits</dt>
                <dd>
                  {e.EMAIL_DAILY_LIMIT} a day, {e.EMAIL_MONTHLY_LIMIT} a month per project
                </dd>
                <dt className="text-muted-foreground">Delivery attempts</dt>
                <dd>
                  {e.MAIL_DELIVERY_ATTEMPTS}, first retry after about {e.MAIL_RETRY_BASE_SECONDS} s
                </dd>
              </dl>
            </CardContent>
          </Card>
        </div>
      </div>
    </>
  );
}
