import type { Metadata } from "next";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { redirect } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/label";
import { NativeSelect } from "@/components/ui/native-select";
import { PublicFrame } from "@/components/shell/public-frame";
import { currentOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { scopeGroups } from "@/lib/keys/scopes";
import { checkAuthorizeRequest, redirectWith } from "@/lib/oauth/authorize-request";
import { consentChoices } from "@/lib/oauth/consent-choices";
import { oauthIssuer } from "@/lib/oauth/oauth-config";
import { AUTHORIZE_PATH, CONSENT_PATH } from "@/lib/oauth/http/handle-authorize";

export const metadata: Metadata = { title: "Connect an application", robots: { index: false } };
export const dynamic = "force-dynamic";

/**
 * The owner's consent to an OAuth client (design D12): the project, the scopes (ticked as the client asked) and at
 * most one mailbox. The page decides nothing; its form POSTs to the authorization endpoint, which checks the request
 * again, the Origin and the owner, and then sends the browser back to the client.
 */
export default async function ConsentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(await searchParams)) for (const one of [v ?? []].flat()) query.append(k, one);
  const owner = await currentOwner();
  if (!owner) redirect(`/login?next=${encodeURIComponent(`${CONSENT_PATH}?${query}`)}`);
  const check = await checkAuthorizeRequest(await getDb(), query);
  if (!check.ok) {
    if ("page" in check) return <Refused message={check.page} />;
    redirect(redirectWith(check.redirect, { error: check.error, error_description: check.description, state: check.state, iss: oauthIssuer() }));
  }
  const { request } = check;
  const projects = await consentChoices(await getDb(), owner.projects);
  // The name is the client's own choice at registration (anyone may register): isolated and with its invisible
  // characters shown, so it cannot reorder or pose as the page's words around it.
  const clientName = request.client.clientName ? <UntrustedText text={request.client.clientName} /> : "An unnamed application";
  const returnsTo = new URL(request.redirectUri);
  return (
    <PublicFrame>
      <Card>
        <CardHeader>
          <CardTitle className="text-lg">Connect {clientName} to Brynth?</CardTitle>
          <CardDescription>
            It asks to use Brynth&apos;s MCP tools as you allow here. After you answer, your browser goes back to{" "}
            <span className="font-mono text-foreground">{returnsTo.host}</span>. Approve only if you started this connection.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <form method="post" action={AUTHORIZE_PATH} className="grid gap-5">
            <input type="hidden" name="request" value={query.toString()} />
            <div className="grid gap-1.5">
              <Label htmlFor="project_id">Project</Label>
              <NativeSelect id="project_id" name="project_id" defaultValue={owner.project.id}>
                {projects.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </NativeSelect>
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor="mailbox_id">Mailbox</Label>
              <NativeSelect id="mailbox_id" name="mailbox_id" defaultValue="">
                <option value="">Every mailbox of the project</option>
                {projects.map((p) => (
                  <optgroup key={p.id} label={p.name}>
                    {p.mailboxes.map((m) => (
                      <option key={m.id} value={m.id}>
                        Only {m.address}
                      </option>
                    ))}
                  </optgroup>
                ))}
              </NativeSelect>
              <p className="text-xs text-muted-foreground">A mailbox of another project than the one chosen is refused.</p>
            </div>
            {scopeGroups.map((g) => (
              <fieldset key={g.family} className="grid gap-2">
                <legend className="mb-1 text-sm font-medium">{g.title}</legend>
                <div className="grid gap-1.5 sm:grid-cols-2">
                  {g.scopes.map((s) => (
                    <label key={s.id} className="flex items-start gap-2 text-sm" title={s.help}>
                      <input
                        type="checkbox"
                        name="scope"
                        value={s.id}
                        defaultChecked={request.scopes.includes(s.id)}
                        className="mt-0.5 size-4 accent-primary"
                      />
                      <span>
                        {s.label} <span className="font-mono text-xs text-muted-foreground">{s.id}</span>
                      </span>
                    </label>
                  ))}
                </div>
              </fieldset>
            ))}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" name="decision" value="approve">
                Approve
              </Button>
              <Button type="submit" name="decision" value="deny" variant="outline">
                Deny
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
    </PublicFrame>
  );
}

function Refused({ message }: { message: string }) {
  return (
    <PublicFrame>
      <Card role="alert">
        <CardHeader>
          <CardTitle>This authorization request cannot be used</CardTitle>
          <CardDescription>{message} Start the connection again from the application.</CardDescription>
        </CardHeader>
      </Card>
    </PublicFrame>
  );
}
