/**
 * Group commit: calls that arrive while a batch is being written wait and are written
 * together as the next batch. On PGlite every statement is a round trip through one
 * connection, so N concurrent calls then cost about the statements of one transaction
 * instead of N; on PostgreSQL it saves the same round trips and commits. Shared by the
 * platform's settlements and the console store's audit appends (ADR 0007, ADR 0009).
 */

/** What one item of a batch came to: its value, or the error its caller receives. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

type Waiting<I, O> = { item: I; resolve: (value: O) => void; reject: (error: unknown) => void };

export function groupCommit<I, O>(
  /** Writes a batch and answers each item, in order. A rejection fails the whole batch. */
  write: (items: I[]) => Promise<Settled<O>[]>,
  options: {
    /** Items with the same key never share a batch: the later one waits for the next, and sees the first one's effect. Without it, any items may. */
    keyOf?: (item: I) => string;
    maxBatch: number;
  },
): (item: I) => Promise<O> {
  let queue: Waiting<I, O>[] = [];
  let writing = false;

  function writeNext(): void {
    if (writing || queue.length === 0) return;
    const batch: Waiting<I, O>[] = [];
    const keys = new Set<string>();
    const later: Waiting<I, O>[] = [];
    for (const waiting of queue) {
      const key = options.keyOf?.(waiting.item);
      if (batch.length < options.maxBatch && (key === undefined || !keys.has(key))) {
        if (key !== undefined) keys.add(key);
        batch.push(waiting);
      } else later.push(waiting);
    }
    queue = later;
    writing = true;
    write(batch.map((waiting) => waiting.item))
      .then(
        (outcomes) =>
          batch.forEach((waiting, i) => {
            const outcome = outcomes[i] ?? { ok: false, error: new Error("group commit: no outcome for an item") };
            if (outcome.ok) waiting.resolve(outcome.value);
            else waiting.reject(outcome.error);
          }),
        (error: unknown) => batch.forEach((waiting) => waiting.reject(error)),
      )
      .finally(() => {
        writing = false;
        writeNext();
      });
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      // Calls of the same I/O turn (several requests read at once) start as one batch.
      setImmediate(writeNext);
    });
}
