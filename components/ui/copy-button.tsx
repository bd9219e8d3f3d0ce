"use client";

import * as React from "react";
import { Check, Copy } from "lucide-react";
import { toast } from "sonner";
import { cn } from "@/lib/utils";
import { Button, type ButtonProps } from "@/components/ui/button";

/**
 * navigator.clipboard only exists in secure contexts; a self-hosted Brynth is often opened over plain http
 * on a LAN address, so fall back to the legacy execCommand path there.
 */
async function writeClipboard(text: string) {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("Copy failed");
}

type CopyButtonProps = Omit<ButtonProps, "value" | "onClick" | "children"> & {
  value: string;
  /** Accessible name, and visible text when showLabel is set. */
  label?: string;
  showLabel?: boolean;
  toastMessage?: string;
};

function CopyButton({
  value,
  label = "Copy",
  showLabel = false,
  toastMessage = "Copied",
  variant = "ghost",
  size,
  className,
  ...props
}: CopyButtonProps) {
  const [copied, setCopied] = React.useState(false);

  React.useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await writeClipboard(value);
      setCopied(true);
      toast.success(toastMessage);
    } catch {
      toast.error("Could not copy to the clipboard");
    }
  }

  const Icon = copied ? Check : Copy;
  return (
    <Button
      type="button"
      variant={variant}
      size={size ?? (showLabel ? "sm" : "icon-sm")}
      className={cn("text-muted-foreground hover:text-foreground", className)}
      onClick={copy}
      aria-label={showLabel ? undefined : label}
      title={showLabel ? undefined : label}
      data-copied={copied || undefined}
      {...props}
    >
      <Icon aria-hidden />
      {showLabel && label}
    </Button>
  );
}

export { CopyButton, type CopyButtonProps };
