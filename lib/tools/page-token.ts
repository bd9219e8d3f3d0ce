import { createHash } from "node:crypto";
import { safeEqual } from "@/lib/crypto/hash";
import type { PageKey } from "@/lib/db/keyset";
import { signToken } from "@/lib/crypto/secret-box";
import { fieldError } from "@/lib/disk/field-error";
import { stableJson } from "@/lib/json/stable-json";

const PURPOSE = "page-token";

/** Longer than any token we issue (about 150 characters); bounds the work spent on a made-up one. */
export const PAGE_TOKEN_MAX = 512;

/** What a token is good for: one tool in one project, one set of filter arguments, one order. */
export interface PageBinding {
  tool: string;
  /** Rows are always filtered by project; binding it too refuses another project's token instead of starting at its place. */
  project: string;
  /**
   * The caller's mailbox restriction, when it has one: a restricted key given an unrestricted key's token started at
   * that walk's place, skipping its own newer mail. Absent for unrestricted callers, so their tokens read as before.
   */
  mailbox?: string | null;
  filter: unknown;
  ascending: boolean;
}

// 96 bits of SHA-256: the MAC already proves we issued the token; this only tells "other arguments" from "altered".
const filterHash = (b: PageBinding) =>
  createHash("sha256")
    .update(stableJson([b.tool, b.project, b.filter, ...(b.mailbox ? [b.mailbox] : [])]))
    .digest("base64url")
    .slice(0, 16);

/** `<payload>.<hmac>`, both base64url: the payload is `[at, id, ascending, filter hash]`. */
export function encodePageToken(key: PageKey, binding: PageBinding): string {
  const body = Buffer.from(JSON.stringify([key.at, key.id, binding.ascending ? 1 : 0, filterHash(binding)])).toString("base64url");
  return `${body}.${signToken(PURPOSE, body)}`;
}

const FORGED = "is not a next_page_token this API returned; pass it back unchanged, or omit it to start from the first page";

/** The key a token carries, or why it cannot be used for this call (the message of a validation_error). */
export function readPageToken(token: string, binding: PageBinding): { key: PageKey } | { problem: string } {
  const [body, mac, extra] = token.length <= PAGE_TOKEN_MAX ? token.split(".") : [];
  if (!body || !mac || extra !== undefined || !safeEqual(mac, signToken(PURPOSE, body))) return { problem: FORGED };
  let claim: unknown;
  try {
    claim = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {}
  if (!Array.isArray(claim) || claim.length !== 4) return { problem: FORGED };
  const [at, id, ascending, hash] = claim;
  if (typeof at !== "string" || typeof id !== "string" || (ascending !== 0 && ascending !== 1)) return { problem: FORGED };
  if (hash !== filterHash(binding)) {
    return {
      problem: `was returned for other arguments (another filter, inbox, tool, project or key restriction); repeat ${binding.tool} with the arguments that returned it, or omit it to start from the first page`,
    };
  }
  if (ascending !== (binding.ascending ? 1 : 0)) {
    return {
      problem: `was returned for ascending: ${ascending === 1}; pass the same ascending with it, or omit it to start from the first page`,
    };
  }
  return { key: { at, id } };
}

/** The key of a token, or a validation_error naming `pageToken` (the MCP spelling; see list-fields.ts for REST's). */
export function decodePageToken(token: string, binding: PageBinding): PageKey {
  const read = readPageToken(token, binding);
  if ("problem" in read) throw fieldError("pageToken", read.problem, "Pass next_page_token back unchanged with the same other arguments, or omit pageToken.");
  return read.key;
}
