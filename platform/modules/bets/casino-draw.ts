/**
 * The casino and game draw, provably fair (docs/protocol.md "Casino and game bets"). A round's draw
 * is HMAC-SHA256 keyed by the active server seed over `userId:kind:gameCode:roundId`, so no
 * player can compute it from what it knows. The seed's sha256 is published while it is in use
 * and the seed itself once it is retired (after CASINO_SEED_HOURS), so every draw made with it
 * can be checked afterwards, and a published hash pins the seed before its rounds are played.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../../db/index.js";

/** The user wins back twice the stake below this draw: a 5 % house edge. */
export const CASINO_WIN_CHANCE = 0.475;
/** How many retired seeds the fairness call lists, newest first. */
const REVEALED_SEEDS = 20;

export type Round = { userId: bigint; kind: 1 | 2; gameCode: string; roundId: string };

/** A number in [0, 1) from the seed and the round: its HMAC's first 32 bits. */
export function drawOf(seed: string, round: Round): number {
  const message = `${round.userId}:${round.kind}:${round.gameCode}:${round.roundId}`;
  return createHmac("sha256", seed).update(message).digest().readUInt32BE(0) / 2 ** 32;
}

export const seedHashOf = (seed: string) => createHash("sha256").update(seed).digest("hex");

export type ActiveSeed = { id: bigint; seed: string; seedHash: string; since: Date };
export type Fairness = {
  active: { seedHash: string; since: string };
  revealed: { seed: string; seedHash: string; from: string; to: string }[];
};

/** `rotationHours`: how long one seed draws (CASINO_SEED_HOURS); 0 retires it at the next draw. */
export function createCasinoSeeds(db: Db, { rotationHours }: { rotationHours: number }) {
  const age = sql`make_interval(secs => ${rotationHours * 3600})`;

  /** The seed in use and whether it is still within its time. */
  async function findActive() {
    const { rows } = await sql<{ id: bigint; seed: string; seed_hash: string; started_at: Date; due: boolean }>`
      select id, seed, seed_hash, started_at, started_at <= now() - ${age} as due from casino_seeds where retired_at is null`.execute(db);
    const row = rows[0];
    return row && { id: BigInt(row.id), seed: row.seed, seedHash: row.seed_hash, since: row.started_at, due: row.due };
  }

  /**
   * The seed to draw with now. Read on every draw, never cached: a seed another instance retired
   * (and so revealed) must never draw again. A seed past its time is retired here, and a new one
   * started; of two instances rotating at once, the unique index lets one insert win.
   */
  async function active(): Promise<ActiveSeed> {
    const found = await findActive();
    if (found && !found.due) return found;
    const seed = randomBytes(32).toString("hex");
    try {
      await db.transaction().execute(async (trx) => {
        await sql`update casino_seeds set retired_at = now() where retired_at is null and started_at <= now() - ${age}`.execute(trx);
        await sql`insert into casino_seeds (seed, seed_hash) select ${seed}, ${seedHashOf(seed)}
                   where not exists (select 1 from casino_seeds where retired_at is null)`.execute(trx);
      });
    } catch (error) {
      if ((error as { code?: unknown }).code !== "23505") throw error;
    }
    const started = await findActive();
    if (!started) throw new Error("no active casino seed after rotation");
    return started;
  }

  /** What a player may see: the active seed's hash, and the retired seeds with their hashes. Only a draw rotates. */
  async function fairness(): Promise<Fairness> {
    const { seedHash, since } = (await findActive()) ?? (await active());
    const { rows } = await sql<{ seed: string; seed_hash: string; started_at: Date; retired_at: Date }>`
      select seed, seed_hash, started_at, retired_at from casino_seeds where retired_at is not null
       order by retired_at desc, id desc limit ${REVEALED_SEEDS}`.execute(db);
    return {
      active: { seedHash, since: since.toISOString() },
      revealed: rows.map((row) => ({ seed: row.seed, seedHash: row.seed_hash, from: row.started_at.toISOString(), to: row.retired_at.toISOString() })),
    };
  }

  return { active, fairness };
}
