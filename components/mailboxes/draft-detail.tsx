import { Paperclip } from "lucide-react";
import { UntrustedText, UntrustedList } from "@/components/ui/untrusted-text";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatBytes } from "@/components/events/format-bytes";
import { DraftDecision } from "@/components/mailboxes/draft-decision";
import { DraftOwnerActionsBar, type DraftOwnerActions } from "@/components/mailboxes/draft-owner-actions";
import { DraftStatusBadge } from "@/components/mailboxes/draft-status-badge";
import { EditDraftDialog } from "@/components/mailboxes/edit-draft-dialog";
import { MessageBody } from "@/components/mailboxes/message-body";
import type { DraftSendStatus } from "@/lib/db/schema/mail-send";

export type DraftDetailView = {
  id: string;
  mailbox: string;
  kind: string;
  agent: string | null;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string | null;
  text: string | null;
  htmlUrl: string | null;
  htmlWithImagesUrl: string | null;
  remoteImages: number;
  status: DraftSendStatus | null;
  reason: string | null;
  sendAt: string | null;
  updatedAt: string;
  /** What the owner's Edit, Send now and Delete name: a change made since is CONFLICT, not overwritten or sent. */
  version: number;
  requestId: string | null;
  files: Array<{ id: string; name: string; sizeBytes: number; contentType: string }>;
  hash: { content: string; approved: string | null; requestStatus: string | null };
};

type Decide = React.ComponentProps<typeof DraftDecision>["decideAction"];
type Update = React.ComponentProps<typeof EditDraftDialog>["updateAction"];

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </>
  );
}

/**
 * One draft exactly as it would be sent: recipients (bcc too: they get it, no header names them), subject, the
 * body framed like received mail, attachment names and sizes, and the content hash the approval is bound to.
 */
export function DraftDetail({
  d,
  decideAction,
  ownerActions,
}: {
  d: DraftDetailView;
  decideAction: Decide;
  ownerActions: DraftOwnerActions & { updateAction: Update };
}) {
  const held = d.status === "pending_approval";
  const frozen = held || d.status === "sending";
  const changed = held && d.hash.approved !== null && d.hash.approved !== d.hash.content;
  return (
    <article aria-label={`Draft ${d.id}`} className="grid content-start gap-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 className="min-w-0 text-base font-semibold break-words">{d.subject ? <UntrustedText text={d.subject} /> : "(no subject)"}</h2>
        <DraftStatusBadge status={d.status} />
      </div>
      {d.reason && (
        <p role="note" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm">
          <span className="font-medium">{d.status === "rejected" ? "Rejected: " : "Stopped: "}</span>
          {d.reason}
        </p>
      )}
      <dl aria-label="Recipients and details" className="grid grid-cols-[6rem_1fr] gap-x-2 gap-y-1 text-sm">
        <Row label="From">
          <span className="font-mono text-xs">{d.mailbox}</span>
        </Row>
        <Row label="To">
          <span className="font-mono text-xs">
            <UntrustedList items={d.to} empty="—" />
          </span>
        </Row>
        <Row label="Cc">
          <span className="font-mono text-xs">{d.cc.join(", ") || "—"}</span>
        </Row>
        <Row label="Bcc">
          <span className="font-mono text-xs">{d.bcc.join(", ") || "—"}</span>
        </Row>
        <Row label="Subject">{d.subject ? <UntrustedText text={d.subject} /> : "(no subject)"}</Row>
        <Row label="Kind">{d.kind}</Row>
        {d.agent && (
          <Row label="Written by">
            <UntrustedText text={d.agent} />
          </Row>
        )}
        {d.sendAt && (
          <Row label="Sends">
            <RelativeTime date={d.sendAt} />
          </Row>
        )}
        <Row label="Content hash">
          <code className="font-mono text-xs" title="sha256 of exactly what will be sent">
            {d.hash.content}
          </code>
        </Row>
      </dl>
      {changed && (
        <p role="alert" className="text-sm text-destructive">
          This draft changed after it was held: approving it sends nothing and rejects it.
        </p>
      )}
      <MessageBody
        htmlUrl={d.htmlUrl}
        htmlWithImagesUrl={d.htmlWithImagesUrl}
        remoteImages={d.remoteImages}
        text={d.text}
        subject={d.subject ?? "(no subject)"}
      />
      {d.htmlUrl && d.text && (
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground">Plain-text part</summary>
          <pre className="mt-2 font-sans whitespace-pre-wrap break-words">{d.text}</pre>
        </details>
      )}
      <ul aria-label="Attachments" className="flex flex-wrap gap-2">
        {d.files.length === 0 ? (
          <li className="text-xs text-muted-foreground">No attachments</li>
        ) : (
          d.files.map((f) => (
            <li key={f.id} className="inline-flex items-center gap-1.5 rounded-md border px-2 py-1 text-xs">
              <Paperclip className="size-3" aria-hidden />
              <UntrustedText text={f.name} />
              <span className="text-muted-foreground">{formatBytes(f.sizeBytes)}</span>
            </li>
          ))
        )}
      </ul>
      {held && d.requestId && <DraftDecision draftId={d.id} requestId={d.requestId} decideAction={decideAction} />}
      {!frozen && (
        <div className="grid gap-2">
          <EditDraftDialog
            draftId={d.id}
            version={d.version}
            content={{ to: d.to, cc: d.cc, bcc: d.bcc, subject: d.subject ?? "", text: d.text ?? "" }}
            updateAction={ownerActions.updateAction}
          />
          <DraftOwnerActionsBar draftId={d.id} version={d.version} subject={d.subject ?? ""} sendAt={d.sendAt} actions={ownerActions} />
        </div>
      )}
    </article>
  );
}
