import { cn } from "@/lib/utils";
import { CopyButton } from "@/components/ui/copy-button";
import { revealInvisible } from "@/lib/text/reveal-invisible";

type CodeBlockProps = {
  code: string;
  /** Shown as a small caption above the code (e.g. "bash", "json"); not used for highlighting. */
  language?: string;
  copyLabel?: string;
  className?: string;
};

/**
 * Code shows its invisible characters written out (`[U+202E]`): a raw payload from a stranger cannot reorder its
 * own lines; our own snippets hold none. The copy button copies the code exactly.
 */
function CodeBlock({ code, language, copyLabel = "Copy code", className }: CodeBlockProps) {
  return (
    <div data-slot="code-block" className={cn("group relative rounded-lg border bg-muted/40", className)}>
      {language && (
        <div className="border-b px-3 py-1.5 font-mono text-[0.7rem] text-muted-foreground uppercase">{language}</div>
      )}
      <pre className="overflow-x-auto p-3 pr-12 font-mono text-xs leading-relaxed">
        <code>{revealInvisible(code)}</code>
      </pre>
      <CopyButton value={code} label={copyLabel} size="icon-xs" className="absolute top-1.5 right-1.5" />
    </div>
  );
}

export { CodeBlock, type CodeBlockProps };
