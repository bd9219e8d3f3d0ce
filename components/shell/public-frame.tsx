import { BrynthMark } from "@/components/shell/brynth-mark";

/** Pages outside the dashboard (sign-in, setup, emailed links): one centred column with the product name above. */
export function PublicFrame({ children, width = "lg" }: { children: React.ReactNode; width?: "sm" | "lg" }) {
  return (
    <main className="flex min-h-svh flex-col items-center justify-center bg-muted/40 px-4 py-12">
      <div className="mb-6 flex items-center gap-2 text-sm font-semibold tracking-tight">
        <BrynthMark className="size-6" />
        Brynth
      </div>
      <div className={width === "sm" ? "w-full max-w-sm" : "w-full max-w-lg"}>{children}</div>
    </main>
  );
}
