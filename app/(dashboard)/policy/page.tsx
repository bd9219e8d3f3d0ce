import type { Metadata } from "next";
import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { PolicyEditor } from "@/components/policy/policy-editor";
import { PolicySimulator } from "@/components/policy/policy-simulator";
import { RulesTable } from "@/components/policy/rules-table";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listChannels } from "@/lib/channels/list-channels";
import { getPolicy, getPolicyVersion, listPolicyVersions } from "@/lib/policy/get-policy";
import type { Rule } from "@/lib/policy/policy-schema";
import { savePolicyAction, simulatePolicyAction } from "./actions";

export const metadata: Metadata = { title: "Policy" };

type Search = Promise<{ version?: string }>;

export default async function PolicyPage({ searchParams }: { searchParams: Search }) {
  const { project } = await requireOwner();
  const db = await getDb();
  const params = await searchParams;
  const [current, versions, channels] = await Promise.all([getPolicy(db, project.id), listPolicyVersions(db, project.id), listChannels(db, project.id)]);
  const wanted = Number(params.version);
  const viewing = Number.isInteger(wanted) && wanted > 0 && wanted !== current.version ? await getPolicyVersion(db, project.id, wanted) : null;
  const rules = (viewing ? viewing.rules : current.policy.rules) as Rule[];
  const json = JSON.stringify({ rules }, null, 2);
  const channelLabel = (id: string) => channels.find((c) => c.id === id)?.label ?? id;

  return (
    <>
      <PageHeader
        title="Policy"
        description="Rules that decide requests at once or choose who is asked. Agents propose changes with policy_set; a person approves them. Your edits here apply at once."
      />
      <div className="grid gap-6">
        <section className="grid gap-3" aria-labelledby="rules-title">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="rules-title" className="text-sm font-semibold">
              {viewing
                ? `Version ${viewing.version} (not in force)`
                : current.version === 0
                  ? "No policy yet (version 0)"
                  : `Version ${current.version}, in force`}
            </h2>
            <p className="text-xs text-muted-foreground">
              {viewing ? (
                <Link href="/policy" className="underline underline-offset-4">
                  Back to the version in force
                </Link>
              ) : current.row ? (
                <>
                  Approved by {current.row.approvedBy} <RelativeTime date={current.row.createdAt} />
                </>
              ) : (
                "Every ask_approval goes to a person; email and links are allowed."
              )}
            </p>
          </div>
          <RulesTable rules={rules} channelLabel={channelLabel} />
          <details className="group">
            <summary className="cursor-pointer text-xs text-muted-foreground hover:text-foreground">Show as JSON</summary>
            <CodeBlock code={json} language="json" className="mt-2" />
          </details>
        </section>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>Simulator</CardTitle>
              <CardDescription>What would a request get under the policy in force?</CardDescription>
            </CardHeader>
            <CardContent>
              <PolicySimulator simulateAction={simulatePolicyAction} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Edit</CardTitle>
              <CardDescription>
                {viewing ? `Starts from version ${viewing.version}: saving restores it as a new version.` : "Starts from the policy in force."}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <PolicyEditor initial={json} nextVersion={current.version + 1} saveAction={savePolicyAction} />
            </CardContent>
          </Card>
        </div>
        <section className="grid gap-3" aria-labelledby="versions-title">
          <h2 id="versions-title" className="text-sm font-semibold">
            Versions
          </h2>
          {versions.length === 0 ? (
            <p className="text-sm text-muted-foreground">No versions yet.</p>
          ) : (
            <div className="rounded-lg border">
              <Table>
                <TableHeader>
                  <TableRow>
                    <TableHead className="pl-4">Version</TableHead>
                    <TableHead>Rules</TableHead>
                    <TableHead>Note</TableHead>
                    <TableHead>Proposed by</TableHead>
                    <TableHead>Approved by</TableHead>
                    <TableHead className="pr-4">When</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {versions.map((v) => (
                    <TableRow key={v.version} data-version={v.version}>
                      <TableCell className="pl-4">
                        <Link href={v.version === current.version ? "/policy" : `/policy?version=${v.version}`} className="font-medium hover:underline">
                          v{v.version}
                        </Link>
                        {v.version === current.version && <span className="ml-2 text-xs text-muted-foreground">in force</span>}
                      </TableCell>
                      <TableCell className="tabular-nums">{(v.rules as Rule[]).length}</TableCell>
                      <TableCell className="max-w-xs whitespace-normal text-muted-foreground">{v.note ?? "—"}</TableCell>
                      <TableCell className="text-muted-foreground">{v.proposedBy ?? "—"}</TableCell>
                      <TableCell>
                        {v.approvedBy}
                        <span className="block text-xs text-muted-foreground">
                          {v.approvedVia === "dashboard" ? "in the dashboard" : `via ${channelLabel(v.approvedVia)}`}
                          {v.requestId && (
                            <>
                              {" · "}
                              <Link href={`/approvals/${v.requestId}`} className="underline underline-offset-4">
                                request
                              </Link>
                            </>
                          )}
                        </span>
                      </TableCell>
                      <TableCell className="pr-4 text-muted-foreground">
                        <RelativeTime date={v.createdAt} />
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
        </section>
      </div>
    </>
  );
}
