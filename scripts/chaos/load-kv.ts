import { call, outcomes } from "./http-call";
import type { KvBook } from "./kv-book";

const KEYS_PER_WRITER = 5;

/**
 * `writers` agents over REST, each the only writer of its own keys: kv_set of the next sequence number, then a
 * kv_get that the proxy sends to another instance, which must read that write or a newer one. A write that got no
 * answer may still land later, after a newer one: its key is retired (the writer moves to a new key in that slot),
 * so every key's final value is exactly known.
 */
export async function kvLoad(opts: { api: string; key: string; writers: number; book: KvBook; until: () => boolean }) {
  const answers = { set: outcomes(), get: outcomes() };
  const headers = { authorization: `Bearer ${opts.key}` };
  const writer = async (w: number) => {
    const generation = new Array(KEYS_PER_WRITER).fill(0);
    for (let seq = 1; !opts.until(); seq++) {
      const slot = seq % KEYS_PER_WRITER;
      const key = `chaos/rest-${w}/k${slot}-${generation[slot]}`;
      opts.book.attempt(key, seq);
      const set = await call("PUT", `${opts.api}/kv/${key}`, { body: { value: { writer: w, seq } }, headers });
      answers.set.add(set);
      if (set.status !== 200) {
        opts.book.unanswered();
        generation[slot]++;
        continue;
      }
      opts.book.saved(key, seq);
      const get = await call("GET", `${opts.api}/kv/${key}`, { headers });
      answers.get.add(get);
      if (get.status === 200) opts.book.read(key, get.body.value?.seq ?? null, seq);
    }
  };
  await Promise.all(Array.from({ length: opts.writers }, (_, w) => writer(w)));
  return { set: answers.set.counts, get: answers.get.counts };
}
