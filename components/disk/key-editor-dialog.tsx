"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Pencil, Plus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { FormAlert } from "@/components/ui/form-alert";
import type { ActionResult } from "@/lib/auth/owner-action";
import { sentence } from "@/lib/forms/plain-issue";
import { diskHref } from "@/components/disk/format";

export type SaveKeyAction = (input: {
  key: string;
  valueJson: string;
  ttlSeconds?: number;
  ifVersion?: number;
}) => Promise<ActionResult<{ key: string; version: number }>>;

type Props = {
  saveAction: SaveKeyAction;
  /** Editing an existing key: its value as JSON text and the version it was read at (a concurrent write wins). */
  existing?: { key: string; valueJson: string; version: number; ttlSeconds: number | null };
  prefix?: string;
};

/** Create a key or edit one's JSON value and TTL. Edits carry if_version, so an agent's newer write is never lost. */
export function KeyEditorDialog({ saveAction, existing, prefix }: Props) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [errors, setErrors] = React.useState<Record<string, string | undefined>>({});
  const [pending, startTransition] = React.useTransition();
  const ids = { key: React.useId(), value: React.useId(), ttl: React.useId() };

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const key = existing?.key ?? String(form.get("key") ?? "");
    const valueJson = String(form.get("value") ?? "");
    const ttlText = String(form.get("ttl") ?? "").trim();
    const next: Record<string, string | undefined> = {};
    try {
      JSON.parse(valueJson);
    } catch (err) {
      next.value = sentence(`Not valid JSON: ${(err as Error).message}`);
    }
    if (ttlText && !/^\d+$/.test(ttlText)) next.ttl = "A whole number of seconds, or empty for no expiry.";
    if (next.value || next.ttl) return void setErrors(next);
    startTransition(async () => {
      const res = await saveAction({ key, valueJson, ttlSeconds: ttlText ? Number(ttlText) : undefined, ifVersion: existing?.version ?? 0 });
      if (!res.ok) {
        const fe = res.fieldErrors ?? {};
        return void setErrors({
          key: fe.key,
          value: fe.valueJson ?? fe.value,
          ttl: fe.ttlSeconds ?? fe.ttl_seconds,
          form: Object.keys(fe).length ? undefined : res.error,
        });
      }
      setErrors({});
      setOpen(false);
      toast.success(`Saved ${res.data.key} (version ${res.data.version})`);
      router.push(diskHref({ prefix, key: res.data.key }));
      router.refresh();
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setErrors({});
      }}
    >
      <DialogTrigger asChild>
        {existing ? (
          <Button variant="outline" size="sm">
            <Pencil />
            Edit
          </Button>
        ) : (
          <Button size="sm">
            <Plus />
            New key
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)] sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>{existing ? `Edit ${existing.key}` : "New key"}</DialogTitle>
          <DialogDescription>Any JSON value up to 256 KB. Agents read it with kv_get exactly as saved.</DialogDescription>
        </DialogHeader>
        <form id="key-editor" onSubmit={onSubmit} noValidate className="grid gap-4">
          {!existing && (
            <FormField id={ids.key} label="Key" error={errors.key} description="1–512 bytes, e.g. orders/1042. state/ belongs to task states." required>
              <Input name="key" defaultValue={prefix} autoComplete="off" spellCheck={false} className="font-mono" />
            </FormField>
          )}
          <FormField id={ids.value} label="Value (JSON)" error={errors.value} required>
            <Textarea name="value" defaultValue={existing?.valueJson ?? "{}"} rows={14} spellCheck={false} className="font-mono text-xs" />
          </FormField>
          <FormField
            id={ids.ttl}
            label="Expires after (seconds)"
            error={errors.ttl}
            description={
              existing?.ttlSeconds ? `Now expires in about ${existing.ttlSeconds} s. Empty: never expires.` : "Empty: never expires. 1 to 31536000 (a year)."
            }
          >
            <Input name="ttl" inputMode="numeric" autoComplete="off" className="w-48" />
          </FormField>
          <FormAlert>{errors.form}</FormAlert>
        </form>
        <DialogFooter>
          <Button type="submit" form="key-editor" disabled={pending}>
            {pending ? "Saving…" : "Save"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
