"use client";

import { Checkbox } from "@/components/ui/checkbox";
import { FieldError } from "@/components/ui/field-error";
import { Label } from "@/components/ui/label";
import { cn } from "@/lib/utils";

type Props = {
  /** Prefix of each checkbox's id (the label finds it). */
  id: string;
  legend: string;
  description?: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  value: string[];
  onChange: (next: string[]) => void;
  error?: string;
  className?: string;
};

/** A fieldset of checkboxes, each with its own label (so tests and screen readers find them by name). */
export function CheckboxList({ id, legend, description, options, value, onChange, error, className }: Props) {
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset className={cn("grid gap-2", className)} aria-describedby={errorId} aria-invalid={error ? true : undefined}>
      <legend className={cn("mb-1 text-sm font-medium", error && "text-destructive")}>{legend}</legend>
      {description && <p className="-mt-1 text-xs text-muted-foreground">{description}</p>}
      <div className="grid max-h-56 grid-cols-1 gap-x-4 gap-y-1.5 overflow-y-auto sm:grid-cols-2">
        {options.map((o) => {
          const cid = `${id}-${o.value}`;
          return (
            <div key={o.value} className="flex items-center gap-2">
              <Checkbox
                id={cid}
                checked={value.includes(o.value)}
                onCheckedChange={(on) => onChange(on === true ? [...value, o.value] : value.filter((v) => v !== o.value))}
              />
              <Label htmlFor={cid} className="truncate font-mono text-xs font-normal">
                {o.label}
              </Label>
            </div>
          );
        })}
      </div>
      {errorId && <FieldError id={errorId}>{error}</FieldError>}
    </fieldset>
  );
}
