"use client";

import * as React from "react";
import { Paperclip, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { put } from "@/components/disk/file-upload";
import { formatBytes } from "@/components/disk/format";
import type { ActionResult } from "@/lib/auth/owner-action";

type Started = { uploadId: string; url: string; headers: Record<string, string> };
export type UploadActions = {
  startAction: (input: { path: string; size: number; contentType?: string }) => Promise<ActionResult<Started>>;
  completeAction: (input: { path: string; uploadId: string }) => Promise<ActionResult<unknown>>;
};
export type ComposeFile = { key: string; name: string; size: number; loaded: number; path: string; state: "uploading" | "done" | "failed"; error?: string };

/**
 * Attachments go to Disk first through the Files screen's own upload (presigned PUT with progress), then the send
 * attaches them by `path`, as an agent would: big files never pass through a server action's body.
 */
export function ComposeAttachments({
  files,
  setFiles,
  startAction,
  completeAction,
}: UploadActions & { files: ComposeFile[]; setFiles: React.Dispatch<React.SetStateAction<ComposeFile[]>> }) {
  const input = React.useRef<HTMLInputElement>(null);
  const update = (key: string, patch: Partial<ComposeFile>) => setFiles((all) => all.map((f) => (f.key === key ? { ...f, ...patch } : f)));

  async function upload(file: File, item: ComposeFile) {
    try {
      const started = await startAction({ path: item.path, size: file.size, contentType: file.type || undefined });
      if (!started.ok) throw new Error(started.error);
      await put(started.data.url, started.data.headers, file, (loaded) => update(item.key, { loaded }));
      const done = await completeAction({ path: item.path, uploadId: started.data.uploadId });
      if (!done.ok) throw new Error(done.error);
      update(item.key, { loaded: file.size, state: "done" });
    } catch (err) {
      update(item.key, { state: "failed", error: (err as Error).message });
    }
  }

  function onChange(e: React.ChangeEvent<HTMLInputElement>) {
    const picked = [...(e.target.files ?? [])];
    e.target.value = "";
    const batch = crypto.randomUUID().slice(0, 12);
    const items = picked.map((f, i) => ({
      key: `${batch}-${i}`,
      name: f.name,
      size: f.size,
      loaded: 0,
      path: `mail-uploads/${batch}/${f.name}`,
      state: "uploading" as const,
    }));
    setFiles((all) => [...all, ...items]);
    picked.forEach((f, i) => void upload(f, items[i]));
  }

  return (
    <div className="grid gap-2">
      <input ref={input} id="compose-attach" type="file" multiple className="sr-only" onChange={onChange} aria-label="Attach files" />
      <Button type="button" size="sm" variant="outline" className="w-fit" onClick={() => input.current?.click()}>
        <Paperclip aria-hidden />
        Attach files
      </Button>
      {files.length > 0 && (
        <ul aria-label="Attachments to send" className="grid gap-2">
          {files.map((f) => {
            const pct = f.size ? Math.round((f.loaded / f.size) * 100) : 100;
            const status = f.state === "failed" ? f.error : f.state === "done" ? "Ready" : `${pct}%`;
            return (
              <li key={f.key} className="grid gap-1 text-xs" data-upload-state={f.state}>
                <div className="flex items-center justify-between gap-2">
                  <span className="truncate font-medium">{f.name}</span>
                  <span className="flex items-center gap-1">
                    <span role="status" className={f.state === "failed" ? "text-destructive" : "text-muted-foreground"}>
                      {status} · {formatBytes(f.size)}
                    </span>
                    <button
                      type="button"
                      aria-label={`Remove ${f.name}`}
                      className="text-muted-foreground hover:text-foreground"
                      onClick={() => setFiles((all) => all.filter((x) => x.key !== f.key))}
                    >
                      <X className="size-3" aria-hidden />
                    </button>
                  </span>
                </div>
                {f.state === "uploading" && <Progress value={pct} aria-label={`Uploading ${f.name}`} />}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
