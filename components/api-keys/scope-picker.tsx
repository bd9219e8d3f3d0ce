"use client";

import { Checkbox } from "@/components/ui/checkbox";
import { scopeGroups } from "@/lib/keys/scopes";

type ScopePickerProps = { selected: ReadonlySet<string>; onChange: (next: Set<string>) => void };

/** Scopes grouped by spec family. Each checkbox is named by its scope id (what agents and tests see). */
export function ScopePicker({ selected, onChange }: ScopePickerProps) {
  function set(ids: readonly string[], on: boolean) {
    const next = new Set(selected);
    for (const id of ids) on ? next.add(id) : next.delete(id);
    onChange(next);
  }

  return (
    <div className="grid gap-5">
      {scopeGroups.map((group) => {
        const ids = group.scopes.map((s) => s.id);
        const all = ids.every((id) => selected.has(id));
        return (
          <fieldset key={group.family} aria-labelledby={`scopes-${group.family}`} className="grid gap-3">
            <div className="flex items-center justify-between border-b pb-1.5">
              <h3 id={`scopes-${group.family}`} className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                {group.title}
              </h3>
              <button
                type="button"
                className="rounded-sm text-xs text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50"
                onClick={() => set(ids, !all)}
              >
                {all ? "Clear" : "Select all"}
              </button>
            </div>
            <div className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
              {group.scopes.map((scope) => {
                const id = `scope-${scope.id}`;
                return (
                  <div key={scope.id} className="flex items-start gap-2.5">
                    <Checkbox
                      id={id}
                      className="mt-0.5"
                      checked={selected.has(scope.id)}
                      onCheckedChange={(on) => set([scope.id], on === true)}
                      aria-labelledby={`${id}-label`}
                      aria-describedby={`${id}-help`}
                    />
                    <div className="grid min-w-0 gap-0.5">
                      <label htmlFor={id} id={`${id}-label`} className="w-fit cursor-pointer font-mono text-xs font-medium">
                        {scope.id}
                      </label>
                      <p id={`${id}-help`} className="text-xs leading-snug text-muted-foreground">
                        <span className="text-foreground/80">{scope.label}.</span> {scope.help}
                      </p>
                    </div>
                  </div>
                );
              })}
            </div>
          </fieldset>
        );
      })}
    </div>
  );
}
