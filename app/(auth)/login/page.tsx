import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { currentOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { ownerExists } from "@/lib/owners/find-owner";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const { setup, next } = await searchParams;
  // Only a path of this site (an OAuth consent page sends the owner here first), never another origin.
  const after = next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/";
  if (await currentOwner()) redirect(after);
  if (!(await ownerExists(await getDb()))) {
    return (
      <Card role="alert">
        <CardHeader>
          <CardTitle>Set up Brynth first</CardTitle>
          <CardDescription>
            There is no owner account yet. Open the one-time setup link Brynth printed in its log at start, or set OWNER_EMAIL and OWNER_PASSWORD and restart.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sign in</CardTitle>
        <CardDescription>{setup === "done" ? "Your owner account is ready. Sign in to continue." : "Sign in to the Brynth dashboard."}</CardDescription>
      </CardHeader>
      <CardContent>
        <LoginForm next={after} />
      </CardContent>
    </Card>
  );
}
