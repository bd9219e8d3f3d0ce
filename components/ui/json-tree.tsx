"use client";

import * as React from "react";
import { ChevronRight } from "lucide-react";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { cn, plural } from "@/lib/utils";

/** Children shown before a "show more" button, so a huge array cannot freeze the page. */
const PAGE = 100;

type JsonTreeProps = {
  /**
   * Any JSON value. Everything is rendered as React text, never as HTML; keys and strings as untrusted text (their
   * invisible characters written out, each isolated), since payloads come from strangers.
   */
  data: unknown;
  /** Levels open on first render (root is level 0). */
  defaultExpandDepth?: number;
  className?: string;
  "aria-label"?: string;
};

function JsonTree({ data, defaultExpandDepth = 2, className, ...props }: JsonTreeProps) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a named box around a read-only viewer, not form fields for a <fieldset>
    <div
      data-slot="json-tree"
      role="group"
      aria-label={props["aria-label"] ?? "JSON"}
      className={cn("overflow-x-auto rounded-lg border bg-muted/40 p-3 font-mono text-xs leading-5", className)}
    >
      <JsonNode value={data} depth={0} defaultExpandDepth={defaultExpandDepth} />
    </div>
  );
}

type NodeProps = { name?: string | number; value: unknown; depth: number; defaultExpandDepth: number };

function JsonNode({ name, value, depth, defaultExpandDepth }: NodeProps) {
  const isArray = Array.isArray(value);
  const isObject = value !== null && typeof value === "object";
  const [open, setOpen] = React.useState(depth < defaultExpandDepth);
  const [limit, setLimit] = React.useState(PAGE);

  const label =
    name === undefined ? null : (
      <span className={typeof name === "number" ? "text-muted-foreground" : "text-foreground"}>
        {typeof name === "number" ? name : <UntrustedText text={JSON.stringify(name)} />}
        <span className="text-muted-foreground">: </span>
      </span>
    );

  if (!isObject) {
    return (
      <div className="pl-4 break-all whitespace-pre-wrap">
        {label}
        <JsonValue value={value} />
      </div>
    );
  }

  const entries: [string | number, unknown][] = isArray
    ? (value as unknown[]).map((v, i) => [i, v])
    : Object.entries(value as Record<string, unknown>);
  const [openBracket, closeBracket] = isArray ? ["[", "]"] : ["{", "}"];
  const summary = plural(entries.length, isArray ? "item" : "key");

  if (entries.length === 0) {
    return (
      <div className="pl-4">
        {label}
        <span className="text-muted-foreground">{openBracket + closeBracket}</span>
      </div>
    );
  }

  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
        className="group flex items-center rounded-sm text-left outline-none hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <ChevronRight
          aria-hidden
          className={cn("size-4 shrink-0 text-muted-foreground transition-transform", open && "rotate-90")}
        />
        {label}
        <span className="text-muted-foreground">
          {openBracket}
          {!open && <span className="px-1 italic">{summary}</span>}
          {!open && closeBracket}
        </span>
      </button>
      {open && (
        <div className="ml-[7px] border-l pl-2">
          {entries.slice(0, limit).map(([key, child]) => (
            <JsonNode key={key} name={key} value={child} depth={depth + 1} defaultExpandDepth={defaultExpandDepth} />
          ))}
          {entries.length > limit && (
            <button
              type="button"
              onClick={() => setLimit(limit + PAGE)}
              className="ml-4 rounded-sm text-muted-foreground underline-offset-2 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
            >
              Show {Math.min(PAGE, entries.length - limit)} more of {entries.length - limit}
            </button>
          )}
        </div>
      )}
      {open && <div className="pl-4 text-muted-foreground">{closeBracket}</div>}
    </div>
  );
}

function JsonValue({ value }: { value: unknown }) {
  if (value === null) return <span className="text-muted-foreground">null</span>;
  switch (typeof value) {
    case "string":
      return <UntrustedText className="text-emerald-700 dark:text-emerald-400" text={JSON.stringify(value)} />;
    case "number":
    case "bigint":
      return <span className="text-sky-700 dark:text-sky-400">{String(value)}</span>;
    case "boolean":
      return <span className="text-violet-700 dark:text-violet-400">{String(value)}</span>;
    default:
      return <span className="text-muted-foreground">{value === undefined ? "undefined" : String(value)}</span>;
  }
}

export { JsonTree, type JsonTreeProps };
