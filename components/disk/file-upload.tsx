"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Upload } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import type { ActionResult } from "@/lib/auth/owner-action";
import { formatBytes } from "@/components/disk/format";

type Started = { uploadId: string; url: string; headers: Record<string, string> };
type Props = {
  folder: string;
  startAction: (input: { path: string; size: number; contentType?: string }) => Promise<ActionResult<Started>>;
  completeAction: (input: { path: string; uploadId: string }) => Promise<ActionResult<unknown>>;
};
type Item = { id: number; name: string; size: number; loaded: number; state: "uploading" | "saving" | "done" | "failed"; error?: string };

/** PUTs the bytes with XMLHttpRequest for its upload progress events (fetch has none for request bodies). */
export function put(url: string, headers: Record<string, string>, file: File, onProgress: (loaded: number) => void) {
  return new Promise<void>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve();
      let message = `Upload failed (${xhr.status})`;
      try {
        message = JSON.parse(xhr.responseText).error.message;
      } catch {}
      reject(new Error(message));
    };
    xhr.onerror = () => reject(new Error("Network error during upload"));
    xhr.send(file);
  });
}

/**
 * Browser upload into the open folder through the presigned flow: a server action starts the upload, the browser
 * PUTs the bytes to the upload URL with a progress bar, another action completes it.
 */
export function FileUpload({ folder, startAction, completeAction }: Props) {
  const router = useRouter();
  const input = React.useRef<HTMLInputElement>(null);
  const [items, setItems] = React.useState<Item[]>([]);
  const update = (id: number, patch: Partial<Item>) => setItems((all) => all.map((i) => (i.id === id ? { ...i, ...patch } : i)));

  async function uploadOne(file: File, id: number) {
    const path = `${folder}${file.name}`;
    try {
      const started = await startAction({ path, size: file.size, contentType: file.type || undefined });
      if (!started.ok) throw new Error(started.error);
      await put(started.data.url, started.data.headers, file, (loaded) => update(id, { loaded }));
      update(id, { loaded: file.size, state: "saving" });
      const done = await completeAction({ path, uploadId: started.data.uploadId });
      if (!done.ok) throw new Error(done.error);
      update(id, { state: "done" });
      toast.success(`Uploaded ${path}`);
      router.refresh();
    } catch (err) {
      update(id, { state: "failed", error: (err as Error).message });
      toast.error(`${file.name}: ${(err as Error).message}`);
    }
  }

  function onChange(event: React.ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    event.target.value = "";
    const base = Date.now();
    const added = files.map((f, i) => ({ id: base + i, name: f.name, size: f.size, loaded: 0, state: "uploading" as const }));
    setItems((all) => [...added, ...all.filter((i) => i.state !== "done")]);
    files.forEach((f, i) => void uploadOne(f, added[i].id));
  }

  return (
    <div className="grid gap-2">
      <input ref={input} id="disk-upload" type="file" multiple className="sr-only" onChange={onChange} aria-label="Upload files" />
      <Button size="sm" onClick={() => input.current?.click()}>
        <Upload />
        Upload files
      </Button>
      {items.length > 0 && (
        <ul aria-label="Uploads" className="grid w-80 gap-2">
          {items.map((i) => {
            const pct = i.size ? Math.round((i.loaded / i.size) * 100) : 100;
            const status = i.state === "failed" ? i.error : i.state === "done" ? "Uploaded" : i.state === "saving" ? "Saving…" : `${pct}%`;
            return (
              <li key={i.id} className="grid gap-1 text-xs" data-upload-state={i.state}>
                <div className="flex justify-between gap-2">
                  <span className="truncate font-medium">{i.name}</span>
                  <span className={i.state === "failed" ? "text-destructive" : "text-muted-foreground"} role="status">
                    {status} · {formatBytes(i.size)}
                  </span>
                </div>
                <Progress value={pct} aria-label={`Uploading ${i.name}`} aria-valuetext={status} />
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
