import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { currentOwner } from "@/lib/auth/current-owner";
import { signInNext } from "@/lib/auth/sign-in-next";
import { getDb } from "@/lib/db/client";
import { pageParams } from "@/lib/http/page-params";
import { ownerExists } from "@/lib/owners/find-owner";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  // pageParams: `?next=/a&next=/b` is two values, and a list has no startsWith (the page failed with a 500).
  const { setup, next } = pageParams(await searchParams);
  const after = signInNext(next);
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
