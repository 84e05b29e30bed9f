/**
 * Upstream lanes shared by the chunks of one job in flight at once (issue 35). A settlement job
 * keeps two chunks in flight (SETTLE_CHUNKS_IN_FLIGHT, app/machines/settlement.machine.ts); their
 * calls take turns on one set of lanes, first come first served, so the API sees no more calls at
 * once than with one chunk, and the next chunk's calls go the moment the earlier chunk's answer,
 * while the console records that chunk's answers and audit entries. Lanes are this instance's: two
 * chunks of one job sent to two instances each have their own.
 */

type Lanes = { free: number; waiting: Array<() => void>; users: number };

const lanesOf = new Map<string, Lanes>();

/**
 * Runs `work` in one of the `width` lanes named `name` (a job's and a kind of call's), waiting for
 * one to be free; the lanes are forgotten once nobody uses them.
 */
export async function inLane<T>(name: string, width: number, work: () => Promise<T>): Promise<T> {
  let lanes = lanesOf.get(name);
  if (!lanes) lanesOf.set(name, (lanes = { free: width, waiting: [], users: 0 }));
  const own = lanes;
  own.users++;
  try {
    if (own.free > 0) own.free--;
    else await new Promise<void>((resolve) => own.waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The lane passes straight to the next waiting call, or is free again.
      const next = own.waiting.shift();
      if (next) next();
      else own.free++;
    }
  } finally {
    if (--own.users === 0) lanesOf.delete(name);
  }
}

/** Lanes in use or waited for now (a test's check that none is left behind). */
export const lanesInUse = (): number => lanesOf.size;
