/**
 * Upstream lanes shared by the chunks of one job in flight at once (issue 35). A settlement job
 * keeps two chunks in flight (SETTLE_CHUNKS_IN_FLIGHT, app/machines/settlement.machine.ts); their
 * calls share one set of lanes, so the API sees no more calls at once than with one chunk. A free
 * lane goes to the earliest chunk's waiting call: the earlier chunk finishes as fast as alone, and
 * the next one's calls fill the lanes its tail leaves, then run while the console records the
 * earlier chunk's answers and audit entries. Lanes are this instance's: two chunks of one job sent
 * to two instances each have their own.
 */

type Waiting = { order: number; go: () => void };
type Lanes = { free: number; waiting: Waiting[]; users: number };

const lanesOf = new Map<string, Lanes>();

/**
 * Runs `work` in one of the `width` lanes named `name` (a job's and a kind of call's), waiting for
 * one to be free; among waiting calls the lowest `order` (its chunk's start) goes first, then the
 * first come. The lanes are forgotten once nobody uses them.
 */
export async function inLane<T>(name: string, width: number, order: number, work: () => Promise<T>): Promise<T> {
  let lanes = lanesOf.get(name);
  if (!lanes) lanesOf.set(name, (lanes = { free: width, waiting: [], users: 0 }));
  const own = lanes;
  own.users++;
  try {
    if (own.free > 0) own.free--;
    else await new Promise<void>((go) => own.waiting.push({ order, go }));
    try {
      return await work();
    } finally {
      // The lane passes straight to the earliest chunk's waiting call, or is free again.
      const next = own.waiting.reduce<number>((best, waiting, index) => (best < 0 || waiting.order < own.waiting[best]!.order ? index : best), -1);
      if (next >= 0) own.waiting.splice(next, 1)[0]!.go();
      else own.free++;
    }
  } finally {
    if (--own.users === 0) lanesOf.delete(name);
  }
}

/** Lanes in use or waited for now (a test's check that none is left behind). */
export const lanesInUse = (): number => lanesOf.size;
