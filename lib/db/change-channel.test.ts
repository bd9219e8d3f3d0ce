import { describe, expect, it } from "vitest";
import { z } from "zod";
import { changeChannel } from "@/lib/db/change-channel";
import { listen } from "@/lib/db/notify";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("change channel", () => {
  it("gathers what is announced within the delay into one notification, every item delivered once", async () => {
    const channel = changeChannel("test_announce", z.object({ n: z.number() }));
    const payloads: string[] = [];
    const stop = await listen("test_announce", (p) => payloads.push(p));
    const seen: number[] = [];
    const unsubscribe = await channel.subscribe((c) => seen.push(c.n));
    try {
      // Three bursts 100 ms apart, all inside one 1 s window: one NOTIFY, not one per burst.
      for (let burst = 0; burst < 3; burst++) {
        for (let i = 0; i < 10; i++) channel.announce({ n: burst * 10 + i }, 1000);
        await sleep(100);
      }
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(30);
      expect(seen).toEqual(Array.from({ length: 30 }, (_, i) => i));
      expect(payloads).toHaveLength(1);

      // A later announcement opens a new window.
      channel.announce({ n: 30 }, 10);
      await expect.poll(() => seen.length, { timeout: 5000 }).toBe(31);
      expect(payloads).toHaveLength(2);
    } finally {
      stop();
      unsubscribe();
    }
  });
});
