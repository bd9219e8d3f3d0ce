import { Badge } from "@/components/ui/badge";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { JsonTree } from "@/components/ui/json-tree";
import { RelativeTime } from "@/components/ui/relative-time";
import type { Actor } from "@/lib/actor";
import type { ActionResult } from "@/lib/auth/owner-action";
import { getDb } from "@/lib/db/client";
import { findEntry } from "@/lib/disk/get-key";
import { STATE_PREFIX } from "@/lib/disk/key-rules";
import { DeleteButton } from "@/components/disk/delete-button";
import { KeyEditorDialog, type SaveKeyAction } from "@/components/disk/key-editor-dialog";
import { diskHref, formatBytes } from "@/components/disk/format";

type Props = {
  actor: Actor;
  keyName: string;
  prefix: string;
  saveAction: SaveKeyAction;
  deleteAction: (input: { key: string; ifVersion: number }) => Promise<ActionResult<unknown>>;
};

/** One key: its value as a JSON tree (never as HTML), metadata, edit and delete. */
export async function KeyViewer({ actor, keyName, prefix, saveAction, deleteAction }: Props) {
  const entry = await findEntry(await getDb(), { actor, key: keyName });
  if (!entry) {
    return (
      <section aria-label="Key" className="rounded-lg border p-4 text-sm text-muted-foreground">
        <span className="font-mono">{keyName}</span> does not exist or has expired.
      </section>
    );
  }
  const value = JSON.parse(entry.value) as unknown;
  const ttlSeconds = entry.expiresAt ? Math.max(1, Math.round((entry.expiresAt.getTime() - Date.now()) / 1000)) : null;
  const isState = entry.key.startsWith(STATE_PREFIX);
  return (
    <section aria-label={`Key ${entry.key}`} className="grid content-start gap-3 rounded-lg border p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <h2 className="truncate font-mono text-sm font-medium" title={revealInvisible(entry.key)}>
            <UntrustedText text={entry.key} />
          </h2>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <span>{formatBytes(entry.sizeBytes)}</span>
            <Badge variant="secondary">version {entry.version}</Badge>
            <span>
              {entry.expiresAt ? (
                <>
                  expires <RelativeTime date={entry.expiresAt} />
                </>
              ) : (
                "never expires"
              )}
            </span>
            <span>
              updated <RelativeTime date={entry.updatedAt} />
            </span>
          </p>
          {entry.note && (
            <p className="text-sm">
              <UntrustedText text={entry.note} />
            </p>
          )}
        </div>
        <div className="flex items-center gap-1">
          {!isState && (
            <KeyEditorDialog
              saveAction={saveAction}
              prefix={prefix}
              existing={{ key: entry.key, valueJson: JSON.stringify(value, null, 2), version: entry.version, ttlSeconds }}
            />
          )}
          <DeleteButton
            name={entry.key}
            kind={isState ? "task state" : "key"}
            onDelete={deleteAction.bind(null, { key: entry.key, ifVersion: entry.version })}
            after={diskHref({ prefix, tab: isState ? "states" : undefined })}
          />
        </div>
      </div>
      <JsonTree data={value} aria-label={`Value of ${entry.key}`} className="max-h-[60vh] overflow-auto" />
    </section>
  );
}
