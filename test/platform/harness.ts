// Entry points of the platform test bundle (test-output/platform-harness/Code.js): thin functions over the
// real sharded store and document lock, run in the Apps Script emulator (its document properties keep the
// 9 KB per value limit; its lock waits on the virtual clock). Each execution starts fresh, as in Apps Script.
import { withDocumentLock } from '../../src/platform/locks';
import { ShardedStore, type ShardedStoreOptions } from '../../src/platform/sharded-store';

type Options = ShardedStoreOptions<unknown>;
type Pairs = Array<[string, unknown]>;

/** Loads the store, sets the pairs (then deletes `remove`), saves; answers the error of a refused save. */
export function storeWrite(options: Options, pairs: Pairs, remove: string[] = []) {
  const store = ShardedStore.load(options);
  for (const [key, value] of pairs) store.set(key, value);
  for (const key of remove) store.delete(key);
  try {
    store.save();
    return { saved: true };
  } catch (error) {
    const e = error as Error;
    return { saved: false, name: e.name, message: e.message, stillThere: store.get(pairs[0][0]) };
  }
}

/** What a fresh execution reads: every live entry (oldest first), and the value of each asked key. */
export function storeRead(options: Options, keys: string[] = []) {
  const store = ShardedStore.load(options);
  return { entries: store.entries(), values: keys.map((key) => store.get(key) ?? null) };
}

/**
 * Two executions at once: `first` loads, then `second` loads, writes and saves, then `first` writes and
 * saves. Answers what a later execution reads.
 */
export function storeInterleaved(options: Options, first: Pairs, second: Pairs, firstRemoves: string[] = []) {
  const a = ShardedStore.load(options);
  const b = ShardedStore.load(options);
  for (const [key, value] of second) b.set(key, value);
  b.save();
  for (const [key, value] of first) a.set(key, value);
  for (const key of firstRemoves) a.delete(key);
  a.save();
  return ShardedStore.load(options).entries();
}

/** A section inside another: the inner one must not release the outer one's lock. */
export function nestedLocks() {
  return withDocumentLock(
    1000,
    () => {
      const inner = withDocumentLock(
        1000,
        () => 'inner worked',
        () => 'busy',
        { flush: false },
      );
      return { inner, heldAfterInner: LockService.getDocumentLock().hasLock() };
    },
    () => ({ inner: 'outer busy', heldAfterInner: false }),
    { flush: false },
  );
}

/** withDocumentLock around a piece of work that answers 'worked' (or throws when asked to). */
export function lockedWork(timeoutMs: number, flush: boolean | null, fail = false) {
  const options = flush === null ? {} : { flush };
  try {
    const answer = withDocumentLock(
      timeoutMs,
      () => {
        if (fail) throw new Error('work failed');
        return 'worked';
      },
      () => 'busy',
      options,
    );
    return { answer, heldAfter: LockService.getDocumentLock().hasLock() };
  } catch (error) {
    return { thrown: (error as Error).message, heldAfter: LockService.getDocumentLock().hasLock() };
  }
}
