import { expect, it } from "vitest";
import { MAX_RECONNECT_DELAY_S, reconnectDelaySeconds } from "@/lib/db/reconnect-delay";

// The pool counts failures across its connections: a restart's burst of refused connects must not leave them waiting.
it("starts at tens of milliseconds and never waits more than a second, however many failures the pool counted", () => {
  for (let i = 0; i < 200; i++) {
    expect(reconnectDelaySeconds(1)).toBeLessThanOrEqual(0.03);
    expect(reconnectDelaySeconds(1)).toBeGreaterThanOrEqual(0.015);
    for (const failures of [5, 7, 12, 40, 1000]) {
      const delay = reconnectDelaySeconds(failures);
      expect(delay).toBeLessThanOrEqual(MAX_RECONNECT_DELAY_S);
      expect(delay).toBeGreaterThanOrEqual(MAX_RECONNECT_DELAY_S / 2);
    }
  }
});
