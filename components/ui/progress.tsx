"use client";

import type * as React from "react";
import { Progress as ProgressPrimitive } from "radix-ui";
import { cn } from "@/lib/utils";

/** value is 0–100; omit it (null) for an indeterminate bar. */
function Progress({ className, value, ...props }: React.ComponentProps<typeof ProgressPrimitive.Root>) {
  return (
    <ProgressPrimitive.Root
      data-slot="progress"
      value={value}
      className={cn("relative h-2 w-full overflow-hidden rounded-full bg-primary/20", className)}
      {...props}
    >
      <ProgressPrimitive.Indicator
        data-slot="progress-indicator"
        className="h-full w-full flex-1 bg-primary transition-all data-[state=indeterminate]:animate-pulse"
        style={{ transform: `translateX(-${100 - (value ?? 100)}%)` }}
      />
    </ProgressPrimitive.Root>
  );
}

export { Progress };
