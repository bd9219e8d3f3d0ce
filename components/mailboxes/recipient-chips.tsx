"use client";

import * as React from "react";
import { X } from "lucide-react";
import { FieldError } from "@/components/ui/field-error";
import { Label } from "@/components/ui/label";
import { plainAddress } from "@/lib/mail/outbound/address-rules";
import { cn } from "@/lib/utils";

type Props = {
  id: string;
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  /** Reports whether text is left in the input that is not a valid address, so the form can refuse to send. */
  onPendingProblem?: (problem: string | null) => void;
  /** A server-side error for this field (e.g. a send list refusing a recipient). */
  error?: string | null;
};

/** The same rule the send tools apply (address-rules.ts): a plain `local@domain`, no display name. */
export function addressProblem(value: string): string | null {
  const r = plainAddress.safeParse(value);
  // Quoted: what was typed is the subject, spelled as typed, and the sentence ends like every form message.
  return r.success ? null : `“${value}” is not a plain address: write it as local@domain, without a name or brackets.`;
}

/**
 * Recipients as chips: Enter, comma, semicolon, Tab or leaving the field turns the typed text into a chip if it is a
 * plain address, else the text stays with the reason under it. Pasted lists are split on commas, semicolons and
 * whitespace. Backspace on an empty input removes the last chip.
 */
export function RecipientChips({ id, label, values, onChange, onPendingProblem, error }: Props) {
  const [text, setText] = React.useState("");
  const [problem, setProblem] = React.useState<string | null>(null);
  const report = (p: string | null) => {
    setProblem(p);
    onPendingProblem?.(p);
  };

  function commit(raw: string): boolean {
    const parts = raw.split(/[\s,;]+/).filter(Boolean);
    if (parts.length === 0) {
      report(null);
      return true;
    }
    const bad = parts.find((p) => addressProblem(p));
    const good = parts.filter((p) => !addressProblem(p));
    const seen = new Set(values.map((v) => v.toLowerCase()));
    const added = good.filter((g) => !seen.has(g.toLowerCase()) && seen.add(g.toLowerCase()));
    if (added.length) onChange([...values, ...added]);
    const rest = bad ? parts.filter((p) => addressProblem(p)).join(" ") : "";
    setText(rest);
    report(bad ? addressProblem(bad) : null);
    return !bad;
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Enter" || e.key === "," || e.key === ";" || (e.key === "Tab" && text.trim())) {
      if (!text.trim()) {
        if (e.key === "Enter") e.preventDefault();
        return;
      }
      if (!commit(text) || e.key !== "Tab") e.preventDefault();
    } else if (e.key === "Backspace" && !text && values.length) {
      onChange(values.slice(0, -1));
    }
  }

  const shown = problem ?? error ?? null;
  const errorId = shown ? `${id}-error` : undefined;
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id} className={cn(shown && "text-destructive")}>
        {label}
      </Label>
      <div
        className={cn(
          "flex min-h-9 flex-wrap items-center gap-1 rounded-md border bg-transparent px-2 py-1 shadow-xs focus-within:ring-[3px] focus-within:ring-ring/50",
          shown && "border-destructive",
        )}
      >
        <ul aria-label={`${label} recipients`} className="contents">
          {values.map((v) => (
            <li key={v} className="inline-flex items-center gap-1 rounded-sm bg-muted px-1.5 py-0.5 font-mono text-xs">
              {v}
              <button
                type="button"
                aria-label={`Remove ${v}`}
                className="rounded-sm text-muted-foreground hover:text-foreground"
                onClick={() => onChange(values.filter((x) => x !== v))}
              >
                <X className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
        <input
          id={id}
          value={text}
          onChange={(e) => {
            const v = e.target.value;
            setText(v);
            // As you type: a separator or a bracket already tells the text is not one plain address.
            if (/[<>"()\s,;]/.test(v.trim())) report(addressProblem(v.trim()));
            else if (problem) report(v.trim() && addressProblem(v.trim()) ? problem : null);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => commit(text)}
          onPaste={(e) => {
            const pasted = e.clipboardData.getData("text");
            if (!/[\s,;]/.test(pasted.trim())) return;
            e.preventDefault();
            commit(`${text}${pasted}`);
          }}
          aria-invalid={shown ? true : undefined}
          aria-describedby={errorId}
          autoComplete="off"
          spellCheck={false}
          className="min-w-[12rem] flex-1 bg-transparent py-0.5 text-sm outline-none"
        />
      </div>
      {errorId && <FieldError id={errorId}>{shown}</FieldError>}
    </div>
  );
}
