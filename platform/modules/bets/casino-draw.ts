/**
 * The casino and game draw, provably fair (docs/protocol.md "Casino and game bets"). A round's draw
 * is HMAC-SHA256 keyed by the active server seed over `userId:kind:gameCode:roundId`, so no
 * player can compute it from what it knows. A seed's sha256 is published before the seed draws:
 * each seed is announced as the next one when its predecessor starts drawing, and a rotation only
 * switches to it (migration 018). The seed itself is published once it is retired (after
 * CASINO_SEED_HOURS), so every draw made with it can be checked afterwards against the hash
 * that pinned it before its rounds were played.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../../db/index.js";

/** The user wins back twice the stake below this draw: a 5 % house edge. */
export const CASINO_WIN_CHANCE = 0.475;
/** How many times a round begins again when the seeds changed twice while it was drawn (see `seedForRound`). */
const ROUND_BEGINNINGS = 5;
/** How many retired seeds the fairness call lists, newest first. */
const REVEALED_SEEDS = 20;

export type Round = { userId: bigint; kind: 1 | 2; gameCode: string; roundId: string };

/** A number in [0, 1) from the seed and the round: its HMAC's first 32 bits. */
export function drawOf(seed: string, round: Round): number {
  const message = `${round.userId}:${round.kind}:${round.gameCode}:${round.roundId}`;
  return createHmac("sha256", seed).update(message).digest().readUInt32BE(0) / 2 ** 32;
}

export const seedHashOf = (seed: string) => createHash("sha256").update(seed).digest("hex");

/** When a round began, in the database's clock (text keeps its microseconds); see `forRound`. */
export type RoundStart = { readonly at: string };
export type ActiveSeed = { id: bigint; seed: string; seedHash: string };
export type Fairness = {
  active: { seedHash: string; announced: string; since: string };
  /** Extension (issue 29): the seed the next rotation switches to, announced before it draws. */
  next: { seedHash: string; announced: string };
  revealed: { seed: string; seedHash: string; announced: string; from: string; to: string }[];
};

type SeedRow = { id: bigint; seed: string; seed_hash: string; announced_at: Date; started_at: Date | null; due: boolean | null; announced_before: boolean | null };
type Seed = ActiveSeed & { announced: Date; since: Date | null; due: boolean; announcedBefore: boolean };

const newSeed = () => {
  const seed = randomBytes(32).toString("hex");
  return { seed, seedHash: seedHashOf(seed) };
};

/** `rotationHours`: how long one seed draws (CASINO_SEED_HOURS); 0 retires it at the next draw. */
export function createCasinoSeeds(db: Db, { rotationHours }: { rotationHours: number }) {
  const age = sql`make_interval(secs => ${rotationHours * 3600})`;

  async function roundStart(): Promise<RoundStart> {
    const { rows } = await sql<{ at: string }>`select statement_timestamp()::text as at`.execute(db);
    return { at: rows[0]!.at };
  }

  /** The active seed (whether it is past its time) and the next one; each, whether it was announced before `round` began. */
  async function current(round?: RoundStart): Promise<{ active?: Seed; next?: Seed }> {
    const { rows } = await sql<SeedRow>`
      select id, seed, seed_hash, announced_at, started_at, started_at <= now() - ${age} as due,
             announced_at < ${round?.at ?? null}::timestamptz as announced_before
        from casino_seeds where retired_at is null`.execute(db);
    const seeds = rows.map((row) => ({
      id: BigInt(row.id),
      seed: row.seed,
      seedHash: row.seed_hash,
      announced: row.announced_at,
      since: row.started_at,
      due: row.due === true,
      announcedBefore: row.announced_before === true,
    }));
    return { active: seeds.find((seed) => seed.since !== null), next: seeds.find((seed) => seed.since === null) };
  }

  /**
   * Creates the seeds that are missing: the first active one (on a new database) and the next one.
   * Called when the platform starts, so the first round finds both announced. Of two instances
   * doing it at once, the unique indexes let one insert win and the other insert nothing.
   */
  async function announceMissing(): Promise<void> {
    const first = newSeed();
    const next = newSeed();
    await db.transaction().execute(async (trx) => {
      await sql`insert into casino_seeds (seed, seed_hash, started_at) select ${first.seed}, ${first.seedHash}, now()
                 where not exists (select 1 from casino_seeds where started_at is not null and retired_at is null) on conflict do nothing`.execute(trx);
      await sql`insert into casino_seeds (seed, seed_hash) select ${next.seed}, ${next.seedHash}
                 where not exists (select 1 from casino_seeds where started_at is null) on conflict do nothing`.execute(trx);
    });
  }

  /**
   * Retires `active`, starts `next` and announces a new next seed, in one transaction. False when
   * another rotation retired `active` first: the update waits for it and then finds it retired.
   */
  async function rotate(active: Seed, next: Seed): Promise<boolean> {
    const announced = newSeed();
    return db.transaction().execute(async (trx) => {
      const retired = await sql`update casino_seeds set retired_at = now() where id = ${active.id} and retired_at is null returning id`.execute(trx);
      if (retired.rows.length === 0) return false;
      const started = await sql`update casino_seeds set started_at = now() where id = ${next.id} and started_at is null returning id`.execute(trx);
      if (started.rows.length === 0) throw new Error(`casino seed ${next.id} was not the next seed`);
      await sql`insert into casino_seeds (seed, seed_hash) values (${announced.seed}, ${announced.seedHash})`.execute(trx);
      return true;
    });
  }

  /**
   * The seed a round that began at `round` draws with, or null when no seed was announced before
   * it began (the seeds changed twice while it was drawn; it may be played again). Read on every
   * draw, never cached: a seed another instance retired (and so revealed) never draws again. A
   * seed past its time gives way to the next seed if that was announced before the round began;
   * else (another round's rotation announced it meanwhile) it draws this round too.
   */
  async function forRound(round: RoundStart): Promise<ActiveSeed | null> {
    for (;;) {
      const { active, next } = await current(round);
      if (!active || !next) {
        await announceMissing();
        continue;
      }
      if (active.due && next.announcedBefore) {
        if (await rotate(active, next)) return next;
        continue;
      }
      return active.announcedBefore ? active : null;
    }
  }

  /**
   * Begins a round and finds the seed it draws with. A round whose seeds changed twice before its
   * seed was read (racing rotations, CASINO_SEED_HOURS=0 under load) has drawn nothing yet, so it
   * simply begins again; null only when that happened ROUND_BEGINNINGS times in a row.
   */
  async function seedForRound(): Promise<ActiveSeed | null> {
    for (let beginning = 0; beginning < ROUND_BEGINNINGS; beginning++) {
      const seed = await forRound(await roundStart());
      if (seed) return seed;
    }
    return null;
  }

  /** What a player may see: the active and the next seed's hashes, and the retired seeds. Only a draw rotates. */
  async function fairness(): Promise<Fairness> {
    let { active, next } = await current();
    if (!active || !next) {
      await announceMissing();
      ({ active, next } = await current());
    }
    const { rows } = await sql<{ seed: string; seed_hash: string; announced_at: Date; started_at: Date; retired_at: Date }>`
      select seed, seed_hash, announced_at, started_at, retired_at from casino_seeds where retired_at is not null
       order by retired_at desc, id desc limit ${REVEALED_SEEDS}`.execute(db);
    return {
      active: { seedHash: active!.seedHash, announced: active!.announced.toISOString(), since: active!.since!.toISOString() },
      next: { seedHash: next!.seedHash, announced: next!.announced.toISOString() },
      revealed: rows.map((row) => ({
        seed: row.seed,
        seedHash: row.seed_hash,
        announced: row.announced_at.toISOString(),
        from: row.started_at.toISOString(),
        to: row.retired_at.toISOString(),
      })),
    };
  }

  return { seedForRound, fairness, announceMissing };
}
