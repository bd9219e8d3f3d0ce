import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { getDb } from "@/lib/db/client";
import { isSetupTokenUsable } from "@/lib/owners/check-setup-token";
import { ownerExists } from "@/lib/owners/find-owner";
import { SetupForm } from "./setup-form";

export const metadata: Metadata = { title: "Set up" };
export const dynamic = "force-dynamic";

export default async function SetupPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const db = await getDb();
  if (await ownerExists(db)) {
    return (
      <Refused title="Setup is complete" signIn>
        This Brynth instance already has an owner, so setup links no longer work.
      </Refused>
    );
  }
  const token = (await searchParams).token ?? "";
  if (!token) {
    return (
      <Refused title="Open the setup link">
        Use the one-time link Brynth printed in its log at first start (<code className="font-mono">/setup?token=…</code>).
      </Refused>
    );
  }
  if (!(await isSetupTokenUsable(db, token))) {
    return <Refused title="This setup link does not work">It is invalid, expired or already used. Restart Brynth to print a new link.</Refused>;
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Set up Brynth</CardTitle>
        <CardDescription>Create the owner account and the first project.</CardDescription>
      </CardHeader>
      <CardContent>
        <SetupForm token={token} />
      </CardContent>
    </Card>
  );
}

function Refused({ title, signIn, children }: { title: string; signIn?: boolean; children: React.ReactNode }) {
  return (
    <Card role="alert">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{children}</CardDescription>
      </CardHeader>
      {signIn && (
        <CardFooter>
          <Button asChild className="w-full">
            <Link href="/login">Sign in</Link>
          </Button>
        </CardFooter>
      )}
    </Card>
  );
}
