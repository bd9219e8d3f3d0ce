"use client";

import * as React from "react";
import { useRouter } from "next/navigation";
import { toast } from "sonner";
import { FieldError } from "@/components/ui/field-error";
import { NativeSelect } from "@/components/ui/native-select";
import type { ActionResult } from "@/lib/auth/owner-action";
import { cn } from "@/lib/utils";

type Policy = "direct" | "approval" | "read_only";

/** One line per option, shown together so the owner sees what each choice means before picking it. */
export const SEND_POLICY_OPTIONS: Array<{ value: Policy; label: string; explains: string }> = [
  { value: "direct", label: "Direct", explains: "Agents' sends go out at once." },
  { value: "approval", label: "Approval", explains: "Every send waits for your approval in Drafts." },
  { value: "read_only", label: "Read only", explains: "Agents cannot send from this address." },
];

type Props = {
  inboxId: string;
  address: string;
  value: Policy;
  setAction: (input: { inboxId: string; sendPolicy: Policy }) => Promise<ActionResult<{ inboxId: string; sendPolicy: Policy }>>;
};

/** The mailbox's send policy (owner only): saved as soon as it is picked. */
export function SendPolicySelect({ inboxId, address, value, setAction }: Props) {
  const router = useRouter();
  const [current, setCurrent] = React.useState(value);
  const [error, setError] = React.useState<string | null>(null);
  const [pending, startTransition] = React.useTransition();
  React.useEffect(() => setCurrent(value), [value]);

  return (
    <section aria-label="Mailbox settings" className="grid gap-2 rounded-lg border p-3 text-sm sm:grid-cols-[14rem_1fr] sm:items-start">
      <div className="grid gap-1.5">
        <label htmlFor="send-policy" className="text-sm font-medium">
          Send policy
        </label>
        <NativeSelect
          id="send-policy"
          value={current}
          disabled={pending}
          aria-describedby={error ? "send-policy-options send-policy-error" : "send-policy-options"}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            const next = e.target.value as Policy;
            const before = current;
            setCurrent(next);
            startTransition(async () => {
              const res = await setAction({ inboxId, sendPolicy: next });
              if (!res.ok) {
                // Saved on pick, so a refusal keeps the policy in force and says why under the select.
                setCurrent(before);
                return void setError(res.fieldErrors?.sendPolicy ?? res.error);
              }
              setError(null);
              toast.success(`${address}: send policy ${SEND_POLICY_OPTIONS.find((o) => o.value === next)?.label.toLowerCase()}`);
              router.refresh();
            });
          }}
        >
          {SEND_POLICY_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </NativeSelect>
        {error && <FieldError id="send-policy-error">{error}</FieldError>}
      </div>
      <ul id="send-policy-options" className="grid gap-0.5 text-xs">
        {SEND_POLICY_OPTIONS.map((o) => (
          <li key={o.value} className={cn(o.value === current ? "text-foreground" : "text-muted-foreground")}>
            <span className="font-medium">{o.label}:</span> {o.explains}
          </li>
        ))}
      </ul>
    </section>
  );
}
