/**
 * Colours for event sources in charts. One fixed list that reads in both themes: each colour keeps a 3:1 contrast
 * (WCAG's bar for graphics) against white and against the dark theme's background and cards, so a bar never needs a
 * second colour per theme, and a source looks the same after a reload, a theme switch or a new filter.
 */
export const SOURCE_PALETTE = ["#2563eb", "#ea580c", "#059669", "#7c3aed", "#e11d48", "#0891b2", "#c026d3", "#a16207", "#65a30d"] as const;

/** Brynth's own events are bookkeeping, not a provider: always the same neutral slate, outside the palette. */
export const BRYNTH_COLOR = "#64748b";

/** FNV-1a: a stable, well-spread hash of the name, the same in every browser and on the server. */
function hash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * A colour per source name. Each starts at the slot its name hashes to; when two of the project's sources hash to
 * the same slot, the later one in name order takes the next free slot, so sources shown together never share a
 * colour until there are more sources than colours. Pass every source of the project (not only those on screen), so
 * filtering the chart to one source does not recolour it.
 */
export function sourceColors(names: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Set<number>();
  for (const name of [...new Set(names)].sort()) {
    if (name === "brynth") {
      out.set(name, BRYNTH_COLOR);
      continue;
    }
    let slot = hash(name) % SOURCE_PALETTE.length;
    for (let tries = 0; taken.has(slot) && tries < SOURCE_PALETTE.length; tries++) slot = (slot + 1) % SOURCE_PALETTE.length;
    if (taken.size < SOURCE_PALETTE.length) taken.add(slot);
    out.set(name, SOURCE_PALETTE[slot]);
  }
  return out;
}
