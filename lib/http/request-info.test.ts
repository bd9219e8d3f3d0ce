import { afterEach, expect, it, vi } from "vitest";
import { clientIp } from "@/lib/http/request-info";
import { envSettings } from "@/lib/testing/env-settings";

const request = (headers: Record<string, string>) => ({ headers: new Headers({ "x-brynth-remote-address": "10.0.0.2", ...headers }) });
const proxyEnv = envSettings("TRUST_PROXY");
afterEach(() => {
  proxyEnv.restore();
  vi.restoreAllMocks();
});

it("behind TRUST_PROXY takes the last X-Forwarded-For entry, and says once when a request comes without the header", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  proxyEnv.set({ TRUST_PROXY: "1" });
  expect(clientIp(request({ "x-forwarded-for": "198.51.100.9, 203.0.113.7" }))).toBe("203.0.113.7");
  expect(warn).not.toHaveBeenCalled();
  // A proxy that does not set it: every client would be the proxy's address, throttled as one.
  expect(clientIp(request({}))).toBe("10.0.0.2");
  expect(clientIp(request({}))).toBe("10.0.0.2");
  expect(warn).toHaveBeenCalledTimes(1);
  expect(warn.mock.calls[0][0]).toMatch(/TRUST_PROXY is set, but a request from 10\.0\.0\.2 came without X-Forwarded-For/);
});

it("without TRUST_PROXY ignores X-Forwarded-For and warns about nothing", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  proxyEnv.set({ TRUST_PROXY: "false" });
  expect(clientIp(request({ "x-forwarded-for": "203.0.113.7" }))).toBe("10.0.0.2");
  expect(clientIp(request({}))).toBe("10.0.0.2");
  expect(warn).not.toHaveBeenCalled();
});
