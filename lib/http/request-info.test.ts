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

// Found by helper-102: X-Forwarded-For was believed from any peer, so a client reaching the port directly (HOST is
// 0.0.0.0 by default) named a fresh address on each wrong password and was never throttled.
it("believes X-Forwarded-For only from a trusted proxy: private networks for true, else the listed ones", () => {
  const from = (remote: string, forwarded: string) => ({ headers: new Headers({ "x-brynth-remote-address": remote, "x-forwarded-for": forwarded }) });
  proxyEnv.set({ TRUST_PROXY: "true" });
  expect(clientIp(from("127.0.0.1", "203.0.113.7"))).toBe("203.0.113.7");
  expect(clientIp(from("::ffff:172.18.0.3", "203.0.113.7"))).toBe("203.0.113.7");
  expect(clientIp(from("198.51.100.20", "203.0.113.7"))).toBe("198.51.100.20");
  proxyEnv.set({ TRUST_PROXY: "198.51.100.0/28, 2001:db8::5" });
  expect(clientIp(from("198.51.100.9", "203.0.113.7"))).toBe("203.0.113.7");
  expect(clientIp(from("2001:db8::5", "203.0.113.7"))).toBe("203.0.113.7");
  expect(clientIp(from("198.51.100.20", "203.0.113.7"))).toBe("198.51.100.20");
  expect(clientIp(from("10.0.0.2", "203.0.113.7"))).toBe("10.0.0.2");
});

// Found by helper-102: read whole, `ip:port` was no address, so every client counted as the proxy, throttled as one.
it("drops the port a proxy writes after the address", () => {
  proxyEnv.set({ TRUST_PROXY: "1" });
  expect(clientIp(request({ "x-forwarded-for": "198.51.100.9:51234, 203.0.113.7:443" }))).toBe("203.0.113.7");
  expect(clientIp(request({ "x-forwarded-for": "[2001:db8::1]:443" }))).toBe("2001:db8::1");
});

it("refuses a TRUST_PROXY that is neither a yes/no nor addresses, naming it", () => {
  proxyEnv.set({ TRUST_PROXY: "proxy.internal" });
  expect(() => clientIp(request({}))).toThrow(/TRUST_PROXY/);
});
