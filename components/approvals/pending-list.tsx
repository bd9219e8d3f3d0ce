"use client";

import * as React from "react";
import { Kbd } from "@/components/ui/kbd";
import type { RequestData } from "@/components/approvals/request-data";
import { RequestCard, type CardHandle, type DecideAction } from "@/components/approvals/request-card";

const typing = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName));

/**
 * The pending requests, with keyboard shortcuts on the selected one: J/K (or ↓/↑) to move, A approve, D deny,
 * 1–5 an option, C comment, N needs context, Esc leaves a text field.
 */
export function PendingList({ requests, decide }: { requests: RequestData[]; decide: DecideAction }) {
  const [selected, setSelected] = React.useState(0);
  const handles = React.useRef(new Map<string, CardHandle>());
  const index = Math.min(selected, Math.max(0, requests.length - 1));

  React.useEffect(() => {
    function onKey(e: KeyboardEvent) {
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      if (typing(e.target)) {
        if (e.key === "Escape") (e.target as HTMLElement).blur();
        return;
      }
      const current = requests[index];
      const handle = current ? handles.current.get(current.id) : undefined;
      const move = (by: number) => {
        const next = Math.max(0, Math.min(requests.length - 1, index + by));
        setSelected(next);
        document.querySelector(`[data-request-id="${requests[next]?.id}"]`)?.scrollIntoView({ block: "nearest" });
      };
      const key = e.key.toLowerCase();
      if (key === "j" || e.key === "ArrowDown") move(1);
      else if (key === "k" || e.key === "ArrowUp") move(-1);
      else if (!handle) return;
      else if (key === "a") handle.approve();
      else if (key === "d") handle.deny();
      else if (key === "n") handle.needsContext();
      else if (key === "c") handle.focusComment();
      else if (/^[1-5]$/.test(key)) handle.option(Number(key) - 1);
      else return;
      e.preventDefault();
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [requests, index]);

  return (
    <div className="grid gap-3">
      <p className="hidden text-xs text-muted-foreground md:block">
        <Kbd>J</Kbd>/<Kbd>K</Kbd> move · <Kbd>A</Kbd> approve · <Kbd>D</Kbd> deny · <Kbd>1</Kbd>–<Kbd>5</Kbd> option · <Kbd>C</Kbd> comment · <Kbd>N</Kbd> needs
        context
      </p>
      {requests.map((r, i) => (
        <RequestCard
          key={r.id}
          request={r}
          selected={i === index}
          onSelect={() => setSelected(i)}
          decide={decide}
          handleRef={(h: CardHandle | null) => {
            if (h) handles.current.set(r.id, h);
            else handles.current.delete(r.id);
          }}
        />
      ))}
    </div>
  );
}
