import type { Metadata } from "next";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { PublicFrame } from "@/components/shell/public-frame";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { getDb } from "@/lib/db/client";
import { verifyLinkView } from "@/lib/channels/verify-link";

export const metadata: Metadata = { title: "Confirm your address", robots: { index: false } };
export const dynamic = "force-dynamic";

const results: Record<string, { title: string; text: string }> = {
  awaiting_approval: { title: "Address confirmed", text: "The project owner approves the channel next; then approval requests arrive here." },
  active: { title: "Address confirmed", text: "The channel is active: approval requests will arrive at this address." },
  invalid: { title: "This link does not work", text: "It was used already, has expired, or the channel was removed. Ask for a new one." },
};

/** Shows what is being confirmed; only the button's POST confirms (mail scanners follow links). */
export default async function VerifyPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<{ result?: string }> }) {
  const { token } = await params;
  const { result } = await searchParams;
  const done = result ? (results[result] ?? results.invalid) : null;
  const view = done ? null : await verifyLinkView(await getDb(), token);
  const shown = done ?? (view ? null : results.invalid);
  return (
    <PublicFrame>
      <Card>
        {shown ? (
          <CardHeader>
            <CardTitle>{shown.title}</CardTitle>
            <CardDescription>{shown.text}</CardDescription>
          </CardHeader>
        ) : (
          <>
            <CardHeader>
              <CardTitle>Receive approval requests at {view!.address}?</CardTitle>
              <CardDescription>
                Brynth was asked to send approval requests to this address as channel “<UntrustedText text={view!.label} />
                ”. Confirm only if you expected it.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <form method="post" action={`/verify/${token}/confirm`}>
                <Button type="submit">Confirm this address</Button>
              </form>
            </CardContent>
          </>
        )}
      </Card>
    </PublicFrame>
  );
}
