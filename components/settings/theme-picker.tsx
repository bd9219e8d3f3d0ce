"use client";

import * as React from "react";
import { Monitor, Moon, Sun } from "lucide-react";
import { toast } from "sonner";
import type { ThemeChoice } from "@/lib/owners/theme";
import { cn } from "@/lib/utils";

const choices = [
  { value: "system", label: "System", Icon: Monitor },
  { value: "light", label: "Light", Icon: Sun },
  { value: "dark", label: "Dark", Icon: Moon },
] as const;

type ThemePickerProps = {
  theme: ThemeChoice;
  setThemeAction: (theme: string) => Promise<{ ok: true; data: { theme: ThemeChoice } } | { ok: false; error: string }>;
};

/** Applied at once on <html> (globals.css: .light opts out of the system's dark, .dark forces it), then saved. */
export function ThemePicker({ theme, setThemeAction }: ThemePickerProps) {
  const [current, setCurrent] = React.useState<ThemeChoice>(theme);

  async function choose(next: ThemeChoice) {
    const root = document.documentElement;
    root.classList.remove("light", "dark");
    if (next !== "system") root.classList.add(next);
    root.dataset.theme = next;
    setCurrent(next);
    const res = await setThemeAction(next);
    if (!res.ok) toast.error(res.error);
  }

  return (
    <div role="radiogroup" aria-label="Theme" className="inline-flex gap-1 rounded-lg border p-1">
      {choices.map(({ value, label, Icon }) => (
        // biome-ignore lint/a11y/useSemanticElements: a segmented control; each segment is a radio for assistive tech
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={current === value}
          onClick={() => choose(value)}
          className={cn(
            "inline-flex h-8 items-center gap-1.5 rounded-md px-3 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
            current === value ? "bg-accent font-medium text-accent-foreground" : "text-muted-foreground hover:text-foreground",
          )}
        >
          <Icon aria-hidden className="size-4" />
          {label}
        </button>
      ))}
    </div>
  );
}
