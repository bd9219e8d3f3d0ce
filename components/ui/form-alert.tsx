import type * as React from "react";

/** A form's error that names none of its fields, below the form; nothing when there is none. */
export function FormAlert({ children }: { children?: React.ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="text-sm text-destructive">
      {children}
    </p>
  );
}
