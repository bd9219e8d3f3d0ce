import { createHash } from "node:crypto";
import { sha256Hex } from "@/lib/crypto/hash";
import { AppError } from "@/lib/errors";

export const GENESIS_HASH = "0".repeat(64);

/** The fields an entry's hash covers, in a fixed order. Never derived from jsonb, whose key order Postgres changes. */
export interface ChainedFields {
  projectId: string;
  seq: number;
  /** A Date, or its ISO 8601 text exactly as `toISOString()` writes it. */
  ts: Date | string;
  op: string;
  actorType: string;
  actorId: string | null;
  keyId: string | null;
  agent: string | null;
  platform: string | null;
  via: string;
  subject: string | null;
  inputDigest: string | null;
  outputDigest: string | null;
  prevHash: string;
}

export function entryHash(e: ChainedFields): string {
  return sha256Hex(
    JSON.stringify([
      "brynth-ledger-v1",
      e.projectId,
      e.seq,
      typeof e.ts === "string" ? e.ts : e.ts.toISOString(),
      e.op,
      e.actorType,
      e.actorId,
      e.keyId,
      e.agent,
      e.platform,
      e.via,
      e.subject,
      e.inputDigest,
      e.outputDigest,
      e.prevHash,
    ]),
  );
}

/** An entry's hashed columns as SQL reads them (`ENTRY_COLUMNS`, shaped by lib/db/statement.ts), for the sealer and the verifier. */
export type EntryColumns = Omit<ChainedFields, "projectId" | "seq" | "prevHash"> & { ts: string };

/** `ts` as `toISOString()` writes it (entries keep the millisecond precision of the Date they came from). */
export const ENTRY_COLUMNS = `to_char(ts at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ts, op, actor_type, actor_id,
  key_id, agent, platform, via, subject, input_digest, output_digest`;

export function rowHash(projectId: string, seq: number, row: EntryColumns, prevHash: string): string {
  return entryHash({ ...row, projectId, seq, prevHash });
}

/**
 * Stable JSON (sorted keys), written as pieces to `emit`, so the same content always has the same digest. Built by
 * plain loops, which beat map/join and a sorting `JSON.stringify` replacer alike; keys already in order (most
 * objects) are not sorted.
 *
 * Long strings go out in slices: a V8 string over 128 KB lives in its own freshly mapped pages, and on a small VM
 * each such allocation costs about a millisecond of page faults (a 256 KB kv_set went 1.17x faster without the
 * ones hashing built: bench/ab-checkouts.ts). Escaping is per character, so the slices' escapes join into the
 * whole string's, provided no slice splits a surrogate pair.
 */
function writeCanonical(value: unknown, emit: (piece: string) => void, depth = 0): void {
  if (typeof value === "string") {
    writeString(value, emit);
    return;
  }
  if (value === null || typeof value !== "object") {
    emit(JSON.stringify(value) ?? "null");
    return;
  }
  if (depth === CANONICAL_MAX_DEPTH) throw tooDeep();
  if (Array.isArray(value)) {
    emit("[");
    for (let i = 0; i < value.length; i++) {
      if (i) emit(",");
      writeCanonical(value[i], emit, depth + 1);
    }
    emit("]");
    return;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let sorted = 1;
  while (sorted < keys.length && keys[sorted - 1] < keys[sorted]) sorted++;
  if (sorted < keys.length) keys.sort();
  let first = true;
  emit("{");
  for (const key of keys) {
    const v = obj[key];
    if (v === undefined) continue;
    emit(`${first ? "" : ","}${JSON.stringify(key)}:`);
    first = false;
    writeCanonical(v, emit, depth + 1);
  }
  emit("}");
}

/**
 * Far past what the JSON reader lets in (lib/json/json-depth.ts JSON_MAX_DEPTH), and far short of the stack: a value
 * built some other way is refused by name instead of overflowing it.
 */
const CANONICAL_MAX_DEPTH = 1000;
const tooDeep = () =>
  new AppError("validation_error", `The value is nested more than ${CANONICAL_MAX_DEPTH} levels deep.`, {
    fix: "Send a value with fewer nested arrays and objects.",
  });

const SLICE = 16_384;
const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

function writeString(s: string, emit: (piece: string) => void): void {
  if (s.length <= SLICE) {
    emit(JSON.stringify(s));
    return;
  }
  emit('"');
  for (let start = 0; start < s.length; ) {
    let end = Math.min(s.length, start + SLICE);
    if (isHigh(s.charCodeAt(end - 1)) && isLow(s.charCodeAt(end))) end++; // a pair stays whole (NaN past the end)
    emit(JSON.stringify(s.slice(start, end)).slice(1, -1));
    start = end;
  }
  emit('"');
}

/** The canonical text itself (tests, and anything that must show what a digest covers). */
export function stableStringify(value: unknown): string {
  let out = "";
  writeCanonical(value, (piece) => (out += piece));
  return out;
}

/** An input's digest: the same content digests the same whatever the order of its keys. Hashed as it is written. */
export function digest(value: unknown): string | null {
  if (value === undefined) return null;
  const hash = createHash("sha256");
  writeCanonical(value, (piece) => hash.update(piece));
  return `sha256:${hash.digest("hex")}`;
}
/** An output's digest: of the JSON text as Brynth wrote it, so a holder of the response can check it as is. */
export const textDigest = (text: string) => `sha256:${sha256Hex(text)}`;
