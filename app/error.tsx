"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { PublicFrame } from "@/components/shell/public-frame";

/**
 * A page that failed while rendering. The cause is in the server log (toErrorBody logs it); the owner gets plain
 * words, the digest to quote, a retry and a way back.
 */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <PublicFrame width="sm">
      <div role="alert" className="grid gap-3 rounded-lg border bg-card p-6 text-center shadow-sm">
        <h1 className="text-lg font-semibold">Something went wrong</h1>
        <p className="text-sm text-muted-foreground">This page could not be shown. Try again; if it keeps failing, the server log has the cause.</p>
        {error.digest && <p className="font-mono text-xs text-muted-foreground">Reference: {error.digest}</p>}
        <div className="mt-2 flex justify-center gap-2">
          <Button onClick={reset}>Try again</Button>
          <Button asChild variant="outline">
            <Link href="/">Back to the overview</Link>
          </Button>
        </div>
      </div>
    </PublicFrame>
  );
}
