import { decideErrorText } from "@/lib/approvals/decide-error-text";
import type { Metadata } from "next";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { KindBadge, RequestStatusBadge, RiskBadge } from "@/components/approvals/request-badges";
import { PublicFrame } from "@/components/shell/public-frame";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { getDb } from "@/lib/db/client";
import { emailLinkView } from "@/lib/approvals/email-links";
import { optionPrefix } from "@/lib/approvals/option-label";
import { principalName } from "@/lib/text/principal-name";

export const metadata: Metadata = { title: "Decide a request", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * The page an emailed request link opens. It shows the request and decides nothing: only its form's POST does, so a
 * mail scanner that follows the link changes nothing. The link works once, for its channel, until the request expires.
 */
export default async function DecidePage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<{ error?: string }> }) {
  const { token } = await params;
  const { error } = await searchParams;
  const { state, request: r, channel } = await emailLinkView(await getDb(), token);
  if (!r || state === "invalid") {
    return (
      <PublicFrame>
        <Card>
          <CardHeader>
            <CardTitle>This link does not work</CardTitle>
            <CardDescription>It is unknown, or its channel was removed. Decide from a newer email or from the dashboard.</CardDescription>
          </CardHeader>
        </Card>
      </PublicFrame>
    );
  }
  const question = r.kind === "question";
  return (
    <PublicFrame>
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <KindBadge kind={r.kind} action={r.action} />
            <RiskBadge risk={r.risk} />
            {state !== "open" && <RequestStatusBadge status={state === "expired" ? "expired" : r.status} />}
          </div>
          <CardTitle className="text-lg leading-snug">
            <UntrustedText text={r.summary} />
          </CardTitle>
          <CardDescription>
            Asked by {r.agent ? <UntrustedText text={r.agent} /> : "an agent"} · for <UntrustedText text={channel!.label} /> · expires{" "}
            {r.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {r.details && (
            <p className="text-sm whitespace-pre-wrap break-words">
              <UntrustedText text={r.details} />
            </p>
          )}
          {r.amount !== null && (
            <p className="text-sm">
              Amount: <span className="font-medium tabular-nums">{r.amount}</span>
            </p>
          )}
          {error && (
            <p role="alert" className="text-sm text-destructive">
              {decideErrorText(error)}
            </p>
          )}
          {state === "open" ? (
            <form method="post" action={`/decide/${token}/submit`} className="grid gap-4">
              {question && (
                <div className="grid gap-1.5">
                  <Label htmlFor="text">Your answer</Label>
                  <Textarea id="text" name="text" rows={3} maxLength={4000} />
                </div>
              )}
              <div className="grid gap-1.5">
                <Label htmlFor="comment">Comment (optional; required to ask for more context)</Label>
                <Textarea id="comment" name="comment" rows={2} maxLength={2000} />
              </div>
              {r.options.length > 0 && (
                <fieldset className="flex min-w-0 flex-wrap gap-2" aria-label="Options">
                  {r.options.map((o, i) => (
                    <Button key={o} type="submit" name="choice" value={`option:${i}`} variant="outline">
                      {optionPrefix(r)}
                      <UntrustedText text={o} />
                    </Button>
                  ))}
                </fieldset>
              )}
              <div className="flex flex-wrap gap-2">
                {question ? (
                  <Button type="submit" name="choice" value="answer">
                    Send answer
                  </Button>
                ) : (
                  <>
                    <Button type="submit" name="choice" value="approve">
                      Approve
                    </Button>
                    <Button type="submit" name="choice" value="deny" variant="destructive">
                      Deny
                    </Button>
                  </>
                )}
                <Button type="submit" name="choice" value="needs_context" variant="ghost">
                  Needs more context
                </Button>
              </div>
            </form>
          ) : (
            <p className="text-sm text-muted-foreground">
              {state === "expired"
                ? "This request expired: nobody can decide it any more."
                : `Decided: ${r.status.replace("_", " ")}${r.decision ? ` (${r.decision})` : ""}${r.decidedBy ? ` by ${principalName(r.decidedBy)}` : ""}.`}
            </p>
          )}
        </CardContent>
      </Card>
    </PublicFrame>
  );
}
