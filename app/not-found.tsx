import type { Metadata } from "next";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { PublicFrame } from "@/components/shell/public-frame";

export const metadata: Metadata = { title: "Page not found" };

/** Any URL that names nothing: a styled page with a way back, not Next's bare default. */
export default function NotFound() {
  return (
    <PublicFrame width="sm">
      <div className="grid gap-3 rounded-lg border bg-card p-6 text-center shadow-sm">
        <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">404</p>
        <h1 className="text-lg font-semibold">This page does not exist</h1>
        <p className="text-sm text-muted-foreground">The link may be old, or the object it named was deleted.</p>
        <div className="mt-2 flex justify-center gap-2">
          <Button asChild>
            <Link href="/">Back to the overview</Link>
          </Button>
        </div>
      </div>
    </PublicFrame>
  );
}
