import { Progress } from "@/components/ui/progress";
import { formatBytes } from "@/components/disk/format";

type Props = { keys: number; maxKeys: number; bytes: number; maxBytes: number; downloads: number; maxDownloads: number };

/** The project's disk against its quotas: keys, bytes (KV + files) and this month's downloads. */
export function UsageBars({ keys, maxKeys, bytes, maxBytes, downloads, maxDownloads }: Props) {
  const bars = [
    { label: "Keys", value: keys, max: maxKeys, text: `${keys.toLocaleString("en")} of ${maxKeys.toLocaleString("en")}` },
    { label: "Storage", value: bytes, max: maxBytes, text: `${formatBytes(bytes)} of ${formatBytes(maxBytes)}` },
    { label: "Downloads this month", value: downloads, max: maxDownloads, text: `${formatBytes(downloads)} of ${formatBytes(maxDownloads)}` },
  ];
  return (
    <section aria-label="Disk usage" className="mb-6 grid gap-4 rounded-lg border p-4 sm:grid-cols-3">
      {bars.map((b) => {
        const pct = Math.min(100, (b.value / b.max) * 100);
        return (
          <div key={b.label} className="grid gap-1.5">
            <div className="flex items-baseline justify-between gap-2 text-sm">
              <span className="font-medium">{b.label}</span>
              <span className="text-xs text-muted-foreground tabular-nums">{b.text}</span>
            </div>
            <Progress
              value={pct}
              aria-label={`${b.label}: ${b.text}`}
              className={pct >= 90 ? "[&>[data-slot=progress-indicator]]:bg-destructive" : undefined}
            />
          </div>
        );
      })}
    </section>
  );
}
