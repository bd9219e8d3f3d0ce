"use client";

import * as React from "react";
import { cn } from "@/lib/utils";

const FOCUSABLE = "input:not([type=hidden]),select,textarea,button,[tabindex]:not([tabindex='-1'])";
/** Inside a group (a fieldset of checkboxes), its first choice rather than a "Select all" button. */
const CHOICE = "[role=checkbox],[role=radio],input:not([type=hidden]),select,textarea";

/**
 * A field's error, below its control. When it appears and is the first error of its form, the page (or the
 * scrolling dialog) brings it into view and focus goes to its control: an error below the fold must not look like
 * a button that does nothing. The control is the element whose aria-describedby names this id.
 */
function FieldError({ id, children, className }: { id: string; children: React.ReactNode; className?: string }) {
  const ref = React.useRef<HTMLParagraphElement>(null);
  const text = typeof children === "string" ? children : React.Children.toArray(children).join(" ");

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new message is a new error to bring into view
  React.useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const scope = el.closest("form") ?? el.closest("[role=dialog]") ?? document.body;
    if (scope.querySelector("[data-field-error]") !== el) return;
    const control = scope.querySelector<HTMLElement>(`[aria-describedby~="${CSS.escape(id)}"]`);
    const target = control?.matches(FOCUSABLE)
      ? control
      : (control?.querySelector<HTMLElement>(CHOICE) ?? control?.querySelector<HTMLElement>(FOCUSABLE));
    target?.focus({ preventScroll: true });
    el.scrollIntoView({ block: "center", behavior: "instant" as ScrollBehavior });
  }, [id, text]);

  return (
    <p ref={ref} id={id} data-field-error="" className={cn("text-xs text-destructive", className)}>
      {children}
    </p>
  );
}

export { FieldError };
