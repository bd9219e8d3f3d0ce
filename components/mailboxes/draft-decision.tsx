"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Check, X } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import type { ActionResult } from "@/lib/auth/owner-action";

type Verdict = { outcome: "approve"; comment?: string } | { outcome: "deny"; comment?: string };
type Props = {
  draftId: string;
  requestId: string;
  /** The Approvals screen's own action: one decision, whichever screen comes first; the second hears "already decided". */
  decideAction: (input: { requestId: string; verdict: Verdict }) => Promise<ActionResult<{ status: string }>>;
};

/** Approve or reject a held draft, with an optional comment (a rejection's becomes the draft's send_reason). */
export function DraftDecision({ draftId, requestId, decideAction }: Props) {
  const router = useRouter();
  const [comment, setComment] = React.useState("");
  const [pending, startTransition] = React.useTransition();

  function decide(outcome: "approve" | "deny") {
    startTransition(async () => {
      const res = await decideAction({ requestId, verdict: { outcome, comment: comment.trim() || undefined } });
      if (!res.ok) {
        toast.error(res.error);
        return void router.refresh();
      }
      toast.success(outcome === "approve" ? `Approved: draft ${draftId} is being sent` : `Rejected draft ${draftId}`);
      router.push(outcome === "approve" ? "/mail/drafts" : `/mail/drafts?tab=failed&draft=${draftId}`);
      router.refresh();
    });
  }

  return (
    <section aria-label="Decision" className="grid gap-2 rounded-lg border bg-muted/30 p-3">
      <FormField id="draft-comment" label="Comment" description="Optional. A rejection's comment is what the agent reads as the reason.">
        <Textarea value={comment} onChange={(e) => setComment(e.target.value)} rows={2} maxLength={2000} />
      </FormField>
      <div className="flex gap-2">
        <Button disabled={pending} onClick={() => decide("approve")}>
          <Check aria-hidden />
          Approve and send
        </Button>
        <Button variant="outline" disabled={pending} onClick={() => decide("deny")}>
          <X aria-hidden />
          Reject
        </Button>
      </div>
    </section>
  );
}
