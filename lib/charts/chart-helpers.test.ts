import { describe, expect, it } from "vitest";
import { niceTicks } from "@/lib/charts/nice-ticks";
import { BRYNTH_COLOR, SOURCE_PALETTE, sourceColors } from "@/lib/charts/source-colors";
import { bucketOf, fitTimeWindow } from "@/lib/charts/time-window";

/** WCAG relative luminance and contrast, to hold the palette to 3:1 against both themes' backgrounds. */
const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe("source colours", () => {
  it("keep 3:1 against the light background and the dark theme's background and cards", () => {
    // app/globals.css: light background white; dark background oklch(0.145 0 0) ≈ #0a0a0a, cards oklch(0.205 0 0) ≈ #191919.
    for (const c of [...SOURCE_PALETTE, BRYNTH_COLOR]) {
      for (const bg of ["#ffffff", "#0a0a0a", "#191919"]) expect(contrast(c, bg), `${c} on ${bg}`).toBeGreaterThanOrEqual(3);
    }
  });

  it("are the same for a name whatever the order or the other names, and differ within a project", () => {
    const names = ["stripe", "github", "shopify", "linear", "brynth"];
    const a = sourceColors(names);
    const b = sourceColors([...names].reverse());
    expect([...a].sort()).toEqual([...b].sort());
    expect(a.get("brynth")).toBe(BRYNTH_COLOR);
    const external = names.filter((n) => n !== "brynth").map((n) => a.get(n));
    expect(new Set(external).size).toBe(external.length);
    // Duplicates collapse, and a name alone gets the colour it hashes to.
    expect(sourceColors(["stripe", "stripe"]).size).toBe(1);
    expect(SOURCE_PALETTE).toContain(sourceColors(["stripe"]).get("stripe"));
  });

  it("stay distinct until the palette runs out", () => {
    const names = Array.from({ length: SOURCE_PALETTE.length }, (_, i) => `source-${i}`);
    expect(new Set(sourceColors(names).values()).size).toBe(SOURCE_PALETTE.length);
    const more = sourceColors([...names, "one-more"]);
    expect(more.size).toBe(SOURCE_PALETTE.length + 1);
  });
});

describe("niceTicks", () => {
  it("steps evenly by 1, 2 or 5 × 10^n from 0 past the maximum", () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(13)).toEqual([0, 5, 10, 15]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
    for (const max of [1, 9, 17, 99, 101, 4999, 123_456]) {
      const t = niceTicks(max);
      const steps = new Set(t.slice(1).map((v, i) => v - t[i]));
      expect(steps.size, `max ${max}: ${t}`).toBe(1);
      expect(t[0]).toBe(0);
      expect(t[t.length - 1]).toBeGreaterThanOrEqual(max);
      expect(t.length).toBeLessThanOrEqual(6);
    }
  });
});

describe("fitTimeWindow", () => {
  const now = new Date("2026-12-02T14:35:00Z");
  const hoursAgo = (h: number) => `${new Date(Date.UTC(2026, 11, 2, 14 - h)).toISOString().slice(0, 13)}:00Z`;

  it("picks the smallest window that holds the oldest point", () => {
    expect(fitTimeWindow([], now).hours).toBe(6);
    expect(fitTimeWindow([hoursAgo(0), hoursAgo(3)], now).hours).toBe(6);
    expect(fitTimeWindow([hoursAgo(8)], now).hours).toBe(12);
    expect(fitTimeWindow([hoursAgo(20)], now).hours).toBe(24);
    expect(fitTimeWindow([hoursAgo(30)], now)).toMatchObject({ hours: 72, bucketHours: 3, title: "last 3 days" });
    expect(fitTimeWindow([hoursAgo(100)], now)).toMatchObject({ hours: 168, bucketHours: 6, title: "last 7 days" });
  });

  it("puts buckets and ticks on round UTC hours, evenly spaced, ending with the current bucket", () => {
    for (const points of [[hoursAgo(3)], [hoursAgo(8)], [hoursAgo(20)], [hoursAgo(30)], [hoursAgo(100)]]) {
      const w = fitTimeWindow(points, now);
      expect(w.buckets).toHaveLength(w.hours / w.bucketHours);
      const last = Date.parse(w.buckets[w.buckets.length - 1].start);
      expect(last).toBeLessThanOrEqual(now.getTime());
      expect(now.getTime() - last).toBeLessThan(w.bucketHours * 3600_000);
      const ticks = w.ticks.map((t) => Date.parse(t));
      expect(new Set(ticks.slice(1).map((t, i) => t - ticks[i])).size, `${w.hours} h`).toBe(1);
      for (const t of w.ticks) expect(new Date(t).getUTCMinutes()).toBe(0);
      // Every point falls in a bucket of the window.
      const starts = new Set(w.buckets.map((b) => b.start));
      for (const p of points) expect(starts.has(bucketOf(p, w.bucketHours))).toBe(true);
    }
    const day = fitTimeWindow([hoursAgo(20)], now);
    expect(day.ticks.map((t) => new Date(t).getUTCHours() % 3)).toEqual(day.ticks.map(() => 0));
    const week = fitTimeWindow([hoursAgo(100)], now);
    expect(week.ticks.map((t) => new Date(t).getUTCHours())).toEqual(week.ticks.map(() => 0));
    expect(week.buckets.find((b) => b.start === week.ticks[0])?.label).toMatch(/^[A-Z][a-z]{2} \d+$/);
  });
});
