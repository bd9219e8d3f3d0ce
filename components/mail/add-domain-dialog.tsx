"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { Plus } from "lucide-react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = { addAction: (input: { domain: string }) => Promise<ActionResult<{ id: string; domain: string }>> };

export function AddDomainDialog({ addAction }: Props) {
  const router = useRouter();
  const [open, setOpen] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  const [pending, startTransition] = React.useTransition();

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const domain = String(new FormData(event.currentTarget).get("domain") ?? "").trim();
    startTransition(async () => {
      const res = await addAction({ domain });
      if (!res.ok) return void setError(res.error);
      setError(null);
      setOpen(false);
      toast.success(`${res.data.domain} added: publish its DNS records, then check DNS`);
      router.refresh();
    });
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm">
          <Plus aria-hidden />
          Add domain
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Add a custom domain</DialogTitle>
            <DialogDescription>
              Brynth generates a DKIM key for it and lists the MX, SPF, DKIM and DMARC records to publish. It receives mail once verified.
            </DialogDescription>
          </DialogHeader>
          <FormField id="domain" label="Domain" error={error} description="e.g. mail.example.com (IDNs in their xn-- form)">
            <Input name="domain" required autoComplete="off" placeholder="mail.example.com" />
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {pending ? "Adding…" : "Add domain"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
