"use client";

import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { optionPrefix } from "@/lib/approvals/option-label";
import * as React from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Check, HelpCircle, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Kbd } from "@/components/ui/kbd";
import { Label } from "@/components/ui/label";
import { RelativeTime } from "@/components/ui/relative-time";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";
import type { ActionResult } from "@/lib/auth/owner-action";
import type { PersonVerdict } from "@/lib/approvals/person-verdict";
import type { RequestData } from "@/components/approvals/request-data";
import { KindBadge, RiskBadge } from "@/components/approvals/request-badges";
import { TimeLeft } from "@/components/approvals/time-left";
import { formatAmount } from "@/lib/text/format-amount";

export type DecideAction = (input: { requestId: string; verdict: PersonVerdict }) => Promise<ActionResult<{ status: string }>>;

export interface CardHandle {
  approve(): void;
  deny(): void;
  option(i: number): void;
  needsContext(): void;
  focusComment(): void;
}

const done: Record<string, string> = {
  approved: "Approved",
  denied: "Denied",
  modified: "Option chosen",
  answered: "Answer sent",
  needs_context: "Asked for more context",
};

type Props = {
  request: RequestData;
  selected: boolean;
  onSelect: () => void;
  decide: DecideAction;
  handleRef?: React.Ref<CardHandle>;
};

/** One pending request with everything needed to decide it here: approve, deny, an option, an answer, a comment. */
export function RequestCard({ request: r, selected, onSelect, decide, handleRef }: Props) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();
  const [comment, setComment] = React.useState("");
  const [answer, setAnswer] = React.useState("");
  const commentRef = React.useRef<HTMLTextAreaElement>(null);
  const question = r.kind === "question";

  const send = (verdict: PersonVerdict) =>
    startTransition(async () => {
      const res = await decide({ requestId: r.id, verdict });
      if (res.ok) toast.success(`${done[res.data.status] ?? "Decided"}: ${revealInvisible(r.summary)}`);
      else toast.error(res.error);
      router.refresh();
    });
  const withComment = () => (comment.trim() ? comment.trim() : undefined);
  const needsContext = () => {
    if (!comment.trim()) {
      commentRef.current?.focus();
      toast.message("Write what is missing in the comment, then ask for context.");
      return;
    }
    send({ outcome: "needs_context", comment: comment.trim() });
  };

  React.useImperativeHandle(handleRef, () => ({
    approve: () => !question && send({ outcome: "approve", comment: withComment() }),
    deny: () => !question && send({ outcome: "deny", comment: withComment() }),
    option: (i) => r.options[i] !== undefined && send({ outcome: "option", option: r.options[i], comment: withComment() }),
    needsContext,
    focusComment: () => commentRef.current?.focus(),
  }));

  const labelId = `req-${r.id}-summary`;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click only selects the card; the keyboard selects it on focus (onFocus) or with j/k (pending-list.tsx)
    <article
      aria-labelledby={labelId}
      data-request-id={r.id}
      onClick={onSelect}
      onFocus={onSelect}
      className={cn(
        "grid min-w-0 grid-cols-1 gap-3 rounded-lg border bg-card p-4 transition-shadow",
        selected && "ring-2 ring-ring/60",
        pending && "opacity-60",
      )}
    >
      <header className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 grid-cols-1 gap-1.5">
          <h2 id={labelId} className="text-sm font-semibold wrap-anywhere">
            <Link href={`/approvals/${r.id}`} className="hover:underline">
              <UntrustedText text={r.summary} />
            </Link>
          </h2>
          <div className="flex flex-wrap items-center gap-1.5 text-xs text-muted-foreground">
            <KindBadge kind={r.kind} action={r.action} />
            <RiskBadge risk={r.risk} />
            {r.amount !== null && <span className="font-medium text-foreground tabular-nums">Amount {formatAmount(r.amount)}</span>}
            {r.rule && <span>rule {r.rule}</span>}
          </div>
        </div>
        <TimeLeft expiresAt={r.expiresAt} className="text-xs text-muted-foreground" />
      </header>
      {r.details && (
        <p className="max-h-60 overflow-y-auto text-sm whitespace-pre-wrap wrap-anywhere">
          <UntrustedText text={r.details} />
        </p>
      )}
      <p className="text-xs text-muted-foreground wrap-anywhere">
        Asked by <span className="font-medium text-foreground">{r.agent ? <UntrustedText text={r.agent} /> : "an agent"}</span>
        {r.keyName && (
          <>
            {" "}
            with key <UntrustedText text={r.keyName} className="font-medium text-foreground" />
          </>
        )}
        {r.platform && (
          <>
            {" "}
            on <UntrustedText text={r.platform} />
          </>
        )}{" "}
        · <RelativeTime date={r.createdAt} />
      </p>
      {r.options.length > 0 && (
        <fieldset className="flex min-w-0 flex-wrap gap-2" aria-label="Options">
          {r.options.map((o, i) => (
            <Button
              key={o}
              variant="outline"
              size="sm"
              // An option is the agent's text: it wraps inside the card instead of pushing past the screen's edge.
              className="h-auto min-h-8 max-w-full justify-start py-1 text-left whitespace-normal wrap-anywhere"
              disabled={pending}
              onClick={() => send({ outcome: "option", option: o, comment: withComment() })}
            >
              <Kbd>{i + 1}</Kbd>
              {optionPrefix(r)}
              <UntrustedText text={o} />
            </Button>
          ))}
        </fieldset>
      )}
      {question && (
        <div className="grid gap-1.5">
          <Label htmlFor={`answer-${r.id}`}>Answer</Label>
          <Textarea id={`answer-${r.id}`} value={answer} onChange={(e) => setAnswer(e.target.value)} rows={2} maxLength={4000} />
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor={`comment-${r.id}`} className="text-xs font-normal text-muted-foreground">
          Comment (sent to the agent; required to ask for more context)
        </Label>
        <Textarea id={`comment-${r.id}`} ref={commentRef} value={comment} onChange={(e) => setComment(e.target.value)} rows={1} maxLength={2000} />
      </div>
      <footer className="flex flex-wrap items-center gap-2">
        {question ? (
          <Button size="sm" disabled={pending || !answer.trim()} onClick={() => send({ outcome: "answer", text: answer, comment: withComment() })}>
            <Check aria-hidden />
            Send answer
          </Button>
        ) : (
          <>
            <Button size="sm" disabled={pending} onClick={() => send({ outcome: "approve", comment: withComment() })}>
              <Check aria-hidden />
              Approve <Kbd className="bg-primary-foreground/20 text-primary-foreground">A</Kbd>
            </Button>
            <Button size="sm" variant="destructive" disabled={pending} onClick={() => send({ outcome: "deny", comment: withComment() })}>
              <X aria-hidden />
              Deny <Kbd>D</Kbd>
            </Button>
          </>
        )}
        <Button size="sm" variant="ghost" disabled={pending} onClick={needsContext}>
          <HelpCircle aria-hidden />
          Needs context <Kbd>N</Kbd>
        </Button>
      </footer>
    </article>
  );
}
