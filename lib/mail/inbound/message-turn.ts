const running = new Map<string, Promise<unknown>>();

/**
 * Runs `store` once every earlier store of the same Message-ID for the same project on this instance has settled.
 * The duplicate check that makes a redelivery a no-op is a read before the transaction (prepareInbound): two copies
 * arriving together (a client that gave up on a slow commit and sent again, the same mail relayed twice) would both
 * pass it and be stored twice. Taken in turn, the second reads after the first committed and is skipped. Costs
 * nothing for distinct messages: no query, no lock.
 */
export async function inMessageTurn<T>(projectId: string, rfcMessageId: string, store: () => Promise<T>): Promise<T> {
  const key = `${projectId}\n${rfcMessageId}`;
  const before = running.get(key);
  const mine = before ? before.then(store, store) : store();
  running.set(key, mine);
  try {
    return await mine;
  } finally {
    if (running.get(key) === mine) running.delete(key);
  }
}
