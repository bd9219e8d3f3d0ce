"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ActionResult } from "@/lib/auth/owner-action";

type Props = {
  domainId: string;
  domain: string;
  removable: boolean;
  checkAction: (input: { domainId: string }) => Promise<ActionResult<{ domain: string; verified: boolean; records: Array<{ kind: string; ok: boolean }> }>>;
  removeAction: (input: { domainId: string }) => Promise<ActionResult<{ domain: string }>>;
};

export function DomainActions({ domainId, domain, removable, checkAction, removeAction }: Props) {
  const router = useRouter();
  const [pending, startTransition] = React.useTransition();

  function check() {
    startTransition(async () => {
      const res = await checkAction({ domainId });
      if (!res.ok) return void toast.error(res.error);
      const failing = res.data.records.filter((r) => !r.ok).map((r) => r.kind);
      if (failing.length === 0) toast.success(`${domain}: every record is in place`);
      else toast.warning(`${domain}: ${failing.join(", ")} not right yet${res.data.verified ? "" : " — not verified"}`);
      router.refresh();
    });
  }

  return (
    <div className="flex shrink-0 items-center gap-2">
      <Button variant="outline" size="sm" onClick={check} disabled={pending}>
        {pending ? "Checking…" : "Check DNS"}
      </Button>
      {removable && (
        <ConfirmDialog
          trigger={
            <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive">
              Remove
            </Button>
          }
          title={`Remove ${domain}?`}
          description="Mail to this domain is refused from then on, and its DKIM key is deleted. Type the domain to confirm."
          confirmText={domain}
          actionLabel="Remove domain"
          onConfirm={async () => {
            const res = await removeAction({ domainId });
            if (!res.ok) throw new Error(res.error);
            toast.success(`${domain} removed`);
            router.refresh();
          }}
        />
      )}
    </div>
  );
}
