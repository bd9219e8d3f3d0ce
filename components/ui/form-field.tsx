import type * as React from "react";
import { Slot } from "radix-ui";
import { cn } from "@/lib/utils";
import { Label } from "@/components/ui/label";
import { FieldError } from "@/components/ui/field-error";

type FormFieldProps = {
  /** Becomes the control's id and the label's htmlFor, so tests can find the control by its label. */
  id: string;
  label: React.ReactNode;
  description?: React.ReactNode;
  /** One message or several (as from zod's flattened field errors). */
  error?: string | readonly string[] | null;
  /** Marks the label only; set `required` on the control itself for native validation. */
  required?: boolean;
  /** Control first, label beside it: for Checkbox and Switch. */
  inline?: boolean;
  className?: string;
  /** Exactly one control (Input, Textarea, NativeSelect, SelectTrigger, Checkbox…); it receives id and aria-*. */
  children: React.ReactElement;
};

function FormField({ id, label, description, error, required, inline, className, children }: FormFieldProps) {
  const errors = (typeof error === "string" ? [error] : (error ?? [])).filter(Boolean);
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = errors.length > 0 ? `${id}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(" ") || undefined;

  const labelNode = (
    <Label htmlFor={id} className={cn(errorId && "text-destructive", inline && "font-normal")}>
      {label}
      {required && (
        <span aria-hidden className="-ml-1 text-destructive">
          *
        </span>
      )}
    </Label>
  );
  const control = (
    <Slot.Root id={id} aria-describedby={describedBy} aria-invalid={errorId ? true : undefined}>
      {children}
    </Slot.Root>
  );

  return (
    <div data-slot="form-field" className={cn("grid gap-2", className)}>
      {inline ? (
        <div className="flex items-center gap-2">
          {control}
          {labelNode}
        </div>
      ) : (
        <>
          {labelNode}
          {control}
        </>
      )}
      {description && (
        <p id={descriptionId} className="text-xs text-muted-foreground">
          {description}
        </p>
      )}
      {errorId && <FieldError id={errorId}>{errors.join(" ")}</FieldError>}
    </div>
  );
}

export { FormField, type FormFieldProps };
