import type * as React from "react";
import Link from "next/link";
import { ChevronLeft, ChevronRight } from "lucide-react";
import { cn } from "@/lib/utils";
import { Button } from "@/components/ui/button";

type PaginationProps = {
  /** Href of the previous page (keeping the current filters in the query); null or omitted disables it. */
  prevHref?: string | null;
  nextHref?: string | null;
  /** Optional text on the left, e.g. "50 events". */
  summary?: React.ReactNode;
  className?: string;
};

/** Cursor pagination: the caller builds both hrefs, so state stays in the URL and the back button works. */
function Pagination({ prevHref, nextHref, summary, className }: PaginationProps) {
  return (
    <nav aria-label="Pagination" className={cn("flex items-center justify-between gap-2 py-2", className)}>
      <div className="text-xs text-muted-foreground">{summary}</div>
      <div className="flex items-center gap-2">
        <PageLink href={prevHref} rel="prev">
          <ChevronLeft aria-hidden />
          Previous
        </PageLink>
        <PageLink href={nextHref} rel="next">
          Next
          <ChevronRight aria-hidden />
        </PageLink>
      </div>
    </nav>
  );
}

function PageLink({ href, rel, children }: { href?: string | null; rel: string; children: React.ReactNode }) {
  if (!href) {
    return (
      <Button variant="outline" size="sm" disabled>
        {children}
      </Button>
    );
  }
  return (
    <Button variant="outline" size="sm" asChild>
      <Link href={href} rel={rel}>
        {children}
      </Link>
    </Button>
  );
}

export { Pagination, type PaginationProps };
