"use client";

import * as React from "react";
import { Download, Link2 } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { RelativeTime } from "@/components/ui/relative-time";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormAlert } from "@/components/ui/form-alert";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { NativeSelect } from "@/components/ui/native-select";
import type { ActionResult } from "@/lib/auth/owner-action";
import { useActionForm } from "@/lib/forms/use-action-form";

const expiries = [
  { label: "10 minutes", seconds: 600 },
  { label: "1 hour", seconds: 3600 },
  { label: "1 day", seconds: 86_400 },
  { label: "7 days", seconds: 604_800 },
];

/** Download through a fresh 5-minute URL: the browser saves it as an attachment. */
export function DownloadButton({ path, urlAction }: { path: string; urlAction: (input: { path: string }) => Promise<ActionResult<{ url: string }>> }) {
  const [pending, start] = React.useTransition();
  return (
    <Button
      variant="ghost"
      size="xs"
      aria-label={`Download ${revealInvisible(path)}`}
      disabled={pending}
      onClick={() =>
        start(async () => {
          const res = await urlAction({ path });
          if (!res.ok) return void toast.error(res.error);
          window.location.assign(res.data.url);
        })
      }
    >
      <Download />
      Download
    </Button>
  );
}

type LinkResult = { url: string; expires_at: string; link_id: string };

/** A public link with an expiry; it stops when the file is replaced or deleted, or when revoked on the Links tab. */
export function CreateLinkDialog({
  path,
  linkAction,
}: {
  path: string;
  linkAction: (input: { path: string; expiresIn: number }) => Promise<ActionResult<LinkResult>>;
}) {
  const [open, setOpen] = React.useState(false);
  const [link, setLink] = React.useState<LinkResult | null>(null);
  const { errors, setErrors, submit, pending } = useActionForm(["expiresIn"]);
  const id = React.useId();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const expiresIn = Number(new FormData(event.currentTarget).get("expires"));
    // In the dialog, where the owner is looking: the expiry's problem on it, anything else (a quota) below it.
    submit(
      () => linkAction({ path, expiresIn }),
      (made) => {
        setLink(made);
        toast.success("Link created");
      },
    );
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) {
          setLink(null);
          setErrors({});
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="ghost" size="xs" aria-label={`Create link for ${revealInvisible(path)}`}>
          <Link2 />
          Link
        </Button>
      </DialogTrigger>
      <DialogContent className="grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>
            Public link to <UntrustedText text={path} />
          </DialogTitle>
          <DialogDescription>Anyone with the link can download the file until it expires, without signing in.</DialogDescription>
        </DialogHeader>
        {link ? (
          <div className="grid gap-2">
            <div className="flex items-center gap-2">
              <Input readOnly value={link.url} aria-label="Link URL" className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
              <CopyButton value={link.url} label="Copy link" />
            </div>
            <p className="text-xs text-muted-foreground">
              Expires <RelativeTime date={link.expires_at} />.
            </p>
          </div>
        ) : (
          <form id={`${id}-form`} onSubmit={onSubmit}>
            <FormField id={id} label="Expires after" error={errors.expiresIn}>
              <NativeSelect name="expires" defaultValue="3600">
                {expiries.map((e) => (
                  <option key={e.seconds} value={e.seconds}>
                    {e.label}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormAlert>{errors.form}</FormAlert>
          </form>
        )}
        <DialogFooter>
          {link ? (
            <Button onClick={() => setOpen(false)}>Done</Button>
          ) : (
            <Button type="submit" form={`${id}-form`} disabled={pending}>
              {pending ? "Creating…" : "Create link"}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
