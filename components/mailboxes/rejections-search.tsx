import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";

/** A plain GET form: the address searched for stays in the URL. */
export function RejectionsSearch({ q }: { q?: string }) {
  return (
    <form method="get" action="/mail/rejected" className="flex flex-wrap items-end gap-3">
      <div className="grid gap-1.5">
        <Label htmlFor="r-q" className="text-xs font-normal text-muted-foreground">
          Address
        </Label>
        <Input id="r-q" name="q" type="search" defaultValue={q} placeholder="sender or recipient, or part of one" className="h-8 w-80" />
      </div>
      <Button type="submit" size="sm" variant="secondary">
        Search
      </Button>
      {q && (
        <Button variant="ghost" size="sm" asChild>
          <Link href="/mail/rejected">Clear</Link>
        </Button>
      )}
    </form>
  );
}
