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
export const DOWNLOAD_URL_SECONDS = 5 * 60;
export const LINK_MIN_SECONDS = 60;
export const LINK_MAX_SECONDS = 604_800;
export const LINK_DEFAULT_SECONDS = 3600;
export const MONTHLY_DOWNLOAD_BYTES = 5 * 1024 ** 3;
export const PATH_MAX_BYTES = 1024;
export const SEGMENT_MAX_BYTES = 255;
export const PAGE_MAX = 100;
export const PAGE_DEFAULT = 20;
