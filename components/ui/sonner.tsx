"use client";

import type * as React from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";

/** Mount once in the root layout. theme="system" follows the OS like the rest of the UI (no next-themes). */
function Toaster(props: ToasterProps) {
  return (
    <Sonner
      theme="system"
      className="toaster group"
      position="bottom-right"
      closeButton
      style={
        {
          "--normal-bg": "var(--popover)",
          "--normal-text": "var(--popover-foreground)",
          "--normal-border": "var(--border)",
          "--border-radius": "var(--radius)",
        } as React.CSSProperties
      }
      {...props}
    />
  );
}

export { Toaster };
