/** The disk limits of the spec (brynth-mcp-tools.md: kv_*, state_*, file_*). */
export const KEY_MAX_BYTES = 512;
export const VALUE_MAX_BYTES = 256 * 1024;
export const NOTE_MAX_CHARS = 500;
export const TTL_MAX_SECONDS = 31_536_000;
export const MAX_KEYS = 10_000;
/** KV values and files together. */
export const MAX_BYTES = 1024 ** 3;
export const INLINE_MAX_BYTES = 1024 * 1024;
export const UPLOAD_MAX_BYTES = 100 * 1024 * 1024;
export const UPLOAD_SECONDS = 15 * 60;
export const OPEN_UPLOADS_PER_PATH = 3;
/**
 * How long after an upload URL expires its object may still be written: a PUT that began just before expiry (a
 * slow 100 MB presigned S3 PUT) lands later. Nothing erases an upload's object sooner, whether the janitor finds
 * it abandoned or a write of its path dropped it.
 */
export const LATE_PUT_MS = 60 * 60_000;
export const DOWNLOAD_URL_SECONDS = 5 * 60;
export const LINK_MIN_SECONDS = 60;
export const LINK_MAX_SECONDS = 604_800;
export const LINK_DEFAULT_SECONDS = 3600;
export const MONTHLY_DOWNLOAD_BYTES = 5 * 1024 ** 3;
export const PATH_MAX_BYTES = 1024;
export const SEGMENT_MAX_BYTES = 255;
/**
 * The most text taken as a path before it is normalised: a bound on that work, never the limit itself (checked in
 * NFC, pathProblem). A valid path sent decomposed (NFD, as macOS names files) is longer than as stored, up to four
 * code points for one composed character, so `disk://` and four UTF-16 units per byte of PATH_MAX_BYTES.
 */
export const PATH_INPUT_MAX_CHARS = "disk://".length + 4 * PATH_MAX_BYTES;
export const PAGE_MAX = 100;
export const PAGE_DEFAULT = 20;
