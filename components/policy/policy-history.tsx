import Link from "next/link";
import { RelativeTime } from "@/components/ui/relative-time";
import { PolicyDiff } from "@/components/policy/policy-diff";
import { RevertButton } from "@/components/policy/revert-button";
import type { PolicyHistoryEntry } from "@/lib/policy/policy-history";
import { principalName } from "@/lib/text/principal-name";

type Props = {
  entries: PolicyHistoryEntry[];
  inForce: number;
  channelLabel: (id: string) => string;
  revertAction: React.ComponentProps<typeof RevertButton>["revertAction"];
};

function via(approvedVia: string, channelLabel: (id: string) => string) {
  if (approvedVia === "dashboard") return "in the dashboard";
  if (approvedVia === "rest") return "over owner REST";
  return `via ${channelLabel(approvedVia)}`;
}

/** Every applied version, newest first, with who and when, its diff against the one before, and a revert. */
export function PolicyHistory({ entries, inForce, channelLabel, revertAction }: Props) {
  if (entries.length === 0) {
    return <p className="text-sm text-muted-foreground">No version applied yet. Save a draft above, try it in the simulator, then apply it.</p>;
  }
  return (
    <ol className="grid grid-cols-1 gap-3">
      {entries.map(({ row, diff }) => (
        <li key={row.version} data-version={row.version} className="grid grid-cols-1 gap-2 rounded-lg border p-4">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="grid min-w-0 gap-0.5">
              <h3 className="text-sm font-semibold">
                <Link href={row.version === inForce ? "/policy" : `/policy?version=${row.version}`} className="hover:underline">
                  Version {row.version}
                </Link>
                {row.version === inForce && <span className="ml-2 text-xs font-normal text-muted-foreground">in force</span>}
              </h3>
              <p className="text-xs break-words text-muted-foreground">
                Applied by {principalName(row.approvedBy)} {via(row.approvedVia, channelLabel)} <RelativeTime date={row.createdAt} />
                {row.proposedBy && row.proposedBy !== row.approvedBy && <> · proposed by {principalName(row.proposedBy)}</>}
                {row.requestId && (
                  <>
                    {" · "}
                    <Link href={`/approvals/${row.requestId}`} className="underline underline-offset-4">
                      request
                    </Link>
                  </>
                )}
              </p>
              {row.note && <p className="text-sm break-words">{row.note}</p>}
            </div>
            {row.version !== inForce && <RevertButton version={row.version} inForce={inForce} revertAction={revertAction} />}
          </div>
          <PolicyDiff diff={diff} channelLabel={channelLabel} />
        </li>
      ))}
    </ol>
  );
}
