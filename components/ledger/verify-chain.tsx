"use client";

import * as React from "react";
import Link from "next/link";
import { ShieldCheck, ShieldAlert } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import type { VerifyResult } from "@/lib/ledger/verify-ledger";

type Chunk = VerifyResult & { latest: number; done: boolean };
type State =
  | { kind: "idle" }
  | { kind: "running"; checked: number; latest: number }
  | { kind: "ok"; checked: number }
  | { kind: "broken"; seq: number; reason: string | null }
  | { kind: "error"; message: string };

/** Verifies the whole chain slice by slice, showing progress; answers OK or names the first inconsistent seq. */
async function verifyChunk(fromSeq: number): Promise<{ ok: true; data: Chunk } | { ok: false; error: string }> {
  try {
    const res = await fetch(`/ledger/verify?from_seq=${fromSeq}`, { cache: "no-store" });
    const body = await res.json();
    return res.ok ? { ok: true, data: body as Chunk } : { ok: false, error: body?.error?.message ?? `HTTP ${res.status}` };
  } catch {
    return { ok: false, error: "Brynth could not be reached." };
  }
}

export function VerifyChain() {
  const [state, setState] = React.useState<State>({ kind: "idle" });

  async function run() {
    let from = 1;
    let checked = 0;
    setState({ kind: "running", checked: 0, latest: 0 });
    for (;;) {
      const res = await verifyChunk(from);
      if (!res.ok) return setState({ kind: "error", message: res.error });
      const r = res.data;
      checked += r.checked;
      if (!r.ok) return setState({ kind: "broken", seq: r.first_inconsistent_seq ?? from, reason: r.reason });
      if (r.done) return setState({ kind: "ok", checked });
      from = r.to_seq + 1;
      setState({ kind: "running", checked, latest: r.latest });
    }
  }

  const running = state.kind === "running";
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-3">
      <div role="status" aria-live="polite" className="flex min-w-0 items-center gap-2 text-sm">
        {running && state.latest > 0 && (
          <>
            <Progress value={(state.checked / state.latest) * 100} className="w-32" aria-label="Verification progress" />
            <span className="text-xs text-muted-foreground tabular-nums">
              {state.checked.toLocaleString("en-US")} / {state.latest.toLocaleString("en-US")}
            </span>
          </>
        )}
        {state.kind === "ok" && (
          <span className="flex items-center gap-1.5 text-success">
            <ShieldCheck className="size-4" aria-hidden />
            Chain OK ({state.checked.toLocaleString("en-US")} entries)
          </span>
        )}
        {state.kind === "broken" && (
          <span className="flex items-center gap-1.5 text-destructive">
            <ShieldAlert className="size-4" aria-hidden />
            <span>
              Chain broken at{" "}
              <Link href={`/ledger/${state.seq}`} className="font-medium underline underline-offset-2">
                seq {state.seq}
              </Link>
              {state.reason ? `: ${state.reason}` : ""}
            </span>
          </span>
        )}
        {state.kind === "error" && <span className="text-destructive">{state.message}</span>}
      </div>
      <Button variant="outline" size="sm" onClick={run} disabled={running}>
        <ShieldCheck />
        {running ? "Verifying…" : "Verify chain"}
      </Button>
    </div>
  );
}
