/**
 * Redirect URIs a client may register (design D12, OAuth 2.1 §2.3.1, RFC 8252 §7.3): https anywhere, or plain http
 * only to a loopback host, where a native client listens. No fragment (RFC 6749 §3.1.2) and no userinfo, which would
 * let `https://trusted@evil` read as a trusted name. Matching at /authorize is exact, string for string.
 */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URL.`;
  }
  if (url.hash || uri.includes("#")) return `${uri} has a fragment; redirect URIs may not.`;
  if (url.username || url.password) return `${uri} carries credentials; redirect URIs may not.`;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `${uri} must use https, or http on a loopback host (127.0.0.1, [::1], localhost).`;
}
