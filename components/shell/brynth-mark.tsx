import { cn } from "@/lib/utils";

/**
 * The Brynth mark: a "B" of two stacked rounded blocks, an agent's request over the owner's record. Drawn in
 * currentColor on the primary tile so it follows the theme; app/icon.svg is the same shape as the favicon.
 */
export function BrynthMark({ className, label }: { className?: string; label?: string }) {
  // With a label it is the product's name (the sidebar shows no other); beside the written name it is decoration.
  return (
    <svg
      viewBox="0 0 32 32"
      role="img"
      aria-label={label}
      aria-hidden={label ? undefined : true}
      data-slot="brynth-mark"
      className={cn("size-7 shrink-0 text-primary", className)}
    >
      {label && <title>{label}</title>}
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path d="M10 7h8.5a5 5 0 0 1 0 10H10z" className="fill-primary-foreground" />
      <path d="M10 17.5h9.5a3.75 3.75 0 0 1 0 7.5H10z" className="fill-primary-foreground" opacity="0.7" />
    </svg>
  );
}
