import Link from "next/link";
import { cn } from "@/lib/utils";
import { diskHref } from "@/components/disk/format";

export const diskTabs = [
  { id: "keys", label: "Keys" },
  { id: "states", label: "Task states" },
  { id: "files", label: "Files" },
  { id: "links", label: "Links" },
] as const;
export type DiskTab = (typeof diskTabs)[number]["id"];

/** Tabs as links: the open tab lives in the URL. */
export function DiskTabs({ current }: { current: DiskTab }) {
  return (
    <nav aria-label="Disk sections" className="inline-flex h-9 w-fit max-w-full items-center overflow-x-auto rounded-lg bg-muted p-[3px] text-foreground/75">
      {diskTabs.map((t) => (
        <Link
          key={t.id}
          href={diskHref({ tab: t.id === "keys" ? undefined : t.id })}
          aria-current={t.id === current ? "page" : undefined}
          className={cn(
            "inline-flex h-full items-center rounded-md px-3 text-sm font-medium whitespace-nowrap transition-colors hover:text-foreground",
            t.id === current && "bg-background text-foreground shadow-sm",
          )}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
