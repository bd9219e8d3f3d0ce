/**
 * Environment the Brynth process starts with, read by glibc's malloc before any of our code runs (so it cannot be
 * set from inside). By default malloc hands freed memory at the top of its heap back to the kernel past 128 KB,
 * and serves blocks over 128 KB with their own mmap: a request carrying a 256 KB value then allocates its copies
 * (body, query message, socket write) in fresh pages, and on a small VM every page fault costs ~20 µs. Keeping up
 * to 64 MB and serving blocks up to 4 MB from the heap halved the API's CPU per 256 KB kv_set (bench/disk.ts), and
 * small calls were no slower (whoami, kv_get, kv_set of 1 KB: 1.06–1.09x in alternating rounds). A value the
 * operator already set wins.
 */
export const MALLOC_DEFAULTS = {
  MALLOC_TRIM_THRESHOLD_: String(64 * 1024 * 1024),
  MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024),
};

/** `env` with the defaults above filled in. */
export const runtimeEnv = (env = process.env) => ({ ...MALLOC_DEFAULTS, ...env });
