import type { Metadata } from "next";
import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { PageHeader } from "@/components/ui/page-header";
import { RelativeTime } from "@/components/ui/relative-time";
import { DraftEditor } from "@/components/policy/draft-editor";
import { POLICY_VERSION_MAX } from "@/lib/owner-api/policy";
import { PolicyDiff } from "@/components/policy/policy-diff";
import { PolicyHistory } from "@/components/policy/policy-history";
import { PolicySimulator } from "@/components/policy/policy-simulator";
import { RulesTable } from "@/components/policy/rules-table";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { listChannels } from "@/lib/channels/list-channels";
import { diffPolicies } from "@/lib/policy/diff-policy";
import { getPolicy, getPolicyVersion } from "@/lib/policy/get-policy";
import { getPolicyDraft } from "@/lib/policy/policy-draft";
import { listPolicyHistory } from "@/lib/policy/policy-history";
import type { Rule } from "@/lib/policy/policy-schema";
import { principalName } from "@/lib/text/principal-name";
import { applyDraftAction, discardDraftAction, revertPolicyAction, saveDraftAction, simulatePolicyAction } from "./actions";
import { pageParams } from "@/lib/http/page-params";

export const metadata: Metadata = { title: "Policy" };

type Search = Promise<Record<string, string | string[] | undefined>>;

const asJson = (rules: unknown) => JSON.stringify({ rules }, null, 2);

export default async function PolicyPage({ searchParams }: { searchParams: Search }) {
  const { project } = await requireOwner();
  const db = await getDb();
  const params = pageParams(await searchParams);
  const [current, draft, history, channels] = await Promise.all([
    getPolicy(db, project.id),
    getPolicyDraft(db, project.id),
    listPolicyHistory(db, project.id, { limit: 50 }),
    listChannels(db, project.id),
  ]);
  const wanted = Number(params.version);
  // A version the column can hold: 3000000000 or 1e308 failed the query (a 500) instead of showing the policy in force.
  const viewing =
    Number.isInteger(wanted) && wanted > 0 && wanted <= POLICY_VERSION_MAX && wanted !== current.version
      ? await getPolicyVersion(db, project.id, wanted)
      : null;
  const rules = (viewing ? viewing.rules : current.policy.rules) as Rule[];
  const draftRules = draft ? (draft.rules as Rule[]) : null;
  const channelLabel = (id: string) => channels.find((c) => c.id === id)?.label ?? id;

  return (
    <>
      <PageHeader
        title="Policy"
        description="Rules that decide requests at once or choose who is asked. Edit a draft, try it in the simulator beside the policy in force, then apply it. Agents propose changes with policy_set; a person approves them."
      />
      <div className="grid grid-cols-1 gap-6">
        <section className="grid grid-cols-1 gap-3" aria-labelledby="rules-title">
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
                  Applied by {principalName(current.row.approvedBy)} <RelativeTime date={current.row.createdAt} />
                </>
              ) : (
                "Every ask_approval goes to a person; email and links are allowed."
              )}
            </p>
          </div>
          <RulesTable rules={rules} channelLabel={channelLabel} />
          <details className="group min-w-0">
            <summary className="cursor-pointer text-xs text-muted-foreground hover:text-foreground">Show as JSON</summary>
            <CodeBlock code={asJson(rules)} language="json" className="mt-2" />
          </details>
        </section>
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Card className="min-w-0">
            <CardHeader>
              <CardTitle>Draft</CardTitle>
              <CardDescription>
                {draft ? (
                  <>
                    Saved <RelativeTime date={draft.updatedAt} /> by {principalName(draft.updatedBy)}; not in force until you apply it.
                    {draft.baseVersion !== current.version && (
                      <span className="mt-1 block text-amber-700 dark:text-amber-400">
                        Started from version {draft.baseVersion}; version {current.version} has been applied since.
                      </span>
                    )}
                  </>
                ) : (
                  "No draft yet: this starts from the policy in force. Save it to simulate it; nothing changes until you apply it."
                )}
              </CardDescription>
            </CardHeader>
            <CardContent className="grid grid-cols-1 gap-4">
              <DraftEditor
                initial={asJson(draftRules ?? current.policy.rules)}
                initialNote={draft?.note ?? ""}
                hasDraft={draft !== null}
                versionInForce={current.version}
                draftUpdatedAt={draft?.updatedAt.toISOString() ?? null}
                saveAction={saveDraftAction}
                applyAction={applyDraftAction}
                discardAction={discardDraftAction}
              />
              {draftRules && (
                <section className="grid grid-cols-1 gap-2" aria-labelledby="draft-diff-title">
                  <h3 id="draft-diff-title" className="text-xs font-medium text-muted-foreground">
                    Draft against version {current.version}
                  </h3>
                  <PolicyDiff diff={diffPolicies(current.policy.rules, draftRules)} channelLabel={channelLabel} />
                </section>
              )}
            </CardContent>
          </Card>
          <Card className="min-w-0">
            <CardHeader>
              <CardTitle>Simulator</CardTitle>
              <CardDescription>What would a request get under the policy in force, and under the draft?</CardDescription>
            </CardHeader>
            <CardContent>
              <PolicySimulator simulateAction={simulatePolicyAction} />
            </CardContent>
          </Card>
        </div>
        <section className="grid grid-cols-1 gap-3" aria-labelledby="history-title">
          <h2 id="history-title" className="text-sm font-semibold">
            History
          </h2>
          <PolicyHistory entries={history.entries} inForce={current.version} channelLabel={channelLabel} revertAction={revertPolicyAction} />
          {history.nextBefore !== null && (
            <p className="text-xs text-muted-foreground">Older versions: GET /api/v1/owner/policy/history?before={history.nextBefore}</p>
          )}
        </section>
      </div>
    </>
  );
}
