/**
 * Issue 29: a casino round at a seed change drew with a seed whose hash had never been published
 * (with CASINO_SEED_HOURS=0, 8 rounds of 8; after every 24 h rotation, the first round). The
 * platform now announces the next seed's hash when the current seed starts drawing, and a
 * rotation only switches to that announced seed. A player reads the fairness call before every
 * round and keeps each hash it sees; every round must draw with one of them.
 */
import { createHash, createHmac } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import type { CasinoBet } from "../../protocol/wire.js";
import type { Db } from "../../platform/db/index.js";
import type { Fairness } from "../../platform/modules/bets/casino-draw.js";
import { call, createAdmin, createBettor, ledgerBreaches, testApp, testDb } from "./support/platform.js";

let db: Db;
let partnerId: bigint;

beforeAll(async () => {
  db = await testDb();
  partnerId = (await createAdmin({ role: 3 })).id;
});

type Round = { kind: 1 | 2; roundId: string; seedHash: string; bet: CasinoBet & { gameId?: string } };

/** A player on `app`: reads the fairness record, remembering every hash it was shown, and plays rounds. */
async function player(app: FastifyInstance) {
  const bettor = await createBettor(app, partnerId, 100_000_00n);
  const shown = new Set<string>();
  return {
    bettor,
    shown,
    async fairness(on = app): Promise<Fairness> {
      const reply = await call<Fairness>(on, "GET", "/api/user/casino-seeds", { token: bettor.token });
      expect(reply.statusCode).toBe(200);
      const fairness = reply.data!;
      for (const hash of [fairness.active.seedHash, fairness.next?.seedHash]) if (hash) shown.add(hash);
      return fairness;
    },
    async play(roundId: string, kind: 1 | 2 = 1, on = app) {
      const body = kind === 1 ? { providerCode: "EVO", gameCode: "CRASH", roundId, amount: 1 } : { gameId: "TEENPATTI", roundId, runnerName: "Player A", amount: 1 };
      return call<{ bet: CasinoBet; seedHash: string }>(on, "POST", kind === 1 ? "/api/user/casino-bet" : "/api/user/game-bet", { token: bettor.token, body });
    },
  };
}

/** Each round recomputed from its revealed seed gives the outcome the player was given. */
function expectRoundsCheck(userId: bigint, rounds: Round[], fairness: Fairness) {
  for (const round of rounds) {
    const revealed = fairness.revealed.find((seed) => seed.seedHash === round.seedHash);
    expect(revealed, round.roundId).toBeDefined();
    expect(createHash("sha256").update(revealed!.seed).digest("hex")).toBe(round.seedHash);
    const game = round.kind === 1 ? "CRASH" : "TEENPATTI";
    const draw = createHmac("sha256", revealed!.seed).update(`${userId}:${round.kind}:${game}:${round.roundId}`).digest().readUInt32BE(0) / 2 ** 32;
    expect(round.bet.status, round.roundId).toBe(draw < 0.475 ? "SUCCESS" : "FAIL");
  }
}

/** The seeds not yet retired: their secrets must appear in no fairness answer. */
async function secretSeeds(): Promise<string[]> {
  const { rows } = await sql<{ seed: string }>`select seed from casino_seeds where retired_at is null`.execute(db);
  return rows.map((row) => row.seed);
}

describe("every casino round draws with a seed whose hash was published before the round", () => {
  it("with CASINO_SEED_HOURS=0, where every round starts a new seed", async () => {
    const app = await testApp({ CASINO_SEED_HOURS: 0 });
    try {
      const alice = await player(app);
      const rounds: Round[] = [];
      for (let i = 0; i < 12; i++) {
        const before = await alice.fairness();
        const kind = i % 2 === 0 ? 1 : 2;
        const reply = await alice.play(`zero-${i}`, kind);
        expect(reply.statusCode, reply.msg).toBe(200);
        expect(alice.shown.has(reply.data!.seedHash), `round ${i} drew with a seed never announced`).toBe(true);
        // The announced next seed is the one the rotation switched to.
        expect(reply.data!.seedHash).toBe(before.next.seedHash);
        rounds.push({ kind, roundId: `zero-${i}`, seedHash: reply.data!.seedHash, bet: reply.data!.bet });
      }
      // One more round retires the last round's seed, so every round can be checked.
      expect((await alice.play("zero-last")).statusCode).toBe(200);
      const after = await alice.fairness();
      expectRoundsCheck(alice.bettor.id, rounds, after);
      const answer = JSON.stringify(after);
      for (const secret of await secretSeeds()) expect(answer.includes(secret)).toBe(false);
      // A round is drawn once: replaying one after many rotations moves nothing.
      const replay = await alice.play("zero-0");
      expect([replay.statusCode, replay.msg]).toEqual([409, "roundId: that round was already played"]);
      expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
    } finally {
      await app.close();
    }
  });

  it("with a 24 h rotation, where the first round after a rotation draws with the seed announced a whole rotation before", async () => {
    const app = await testApp({ CASINO_SEED_HOURS: 24 });
    try {
      const bob = await player(app);
      const rounds: Round[] = [];
      let drawing = (await bob.fairness()).active.seedHash;
      for (let rotation = 0; rotation < 3; rotation++) {
        for (let i = 0; i < 3; i++) {
          const reply = await bob.play(`day-${rotation}-${i}`);
          expect(reply.statusCode, reply.msg).toBe(200);
          expect(bob.shown.has(reply.data!.seedHash), `round ${rotation}-${i} drew with a seed never announced`).toBe(true);
          // Within its time one seed draws every round, the first after a rotation included.
          expect(reply.data!.seedHash).toBe(drawing);
          rounds.push({ kind: 1, roundId: `day-${rotation}-${i}`, seedHash: reply.data!.seedHash, bet: reply.data!.bet });
        }
        const now = await bob.fairness();
        expect(now.active.seedHash).toBe(drawing);
        // The next seed is announced when the active one starts drawing: a whole rotation before its use.
        expect(now.next.announced).toBe(now.active.since);
        if (rotation > 0) expect(Date.parse(now.active.since) - Date.parse(now.active.announced)).toBeGreaterThanOrEqual(24 * 3600_000);
        // A day passes.
        await sql`update casino_seeds set announced_at = announced_at - interval '25 hours', started_at = started_at - interval '25 hours' where retired_at is null`.execute(db);
        const due = await bob.fairness();
        expect(due.active.seedHash).toBe(drawing);
        drawing = due.next.seedHash;
      }
      expect((await bob.play("day-last")).statusCode).toBe(200);
      expectRoundsCheck(bob.bettor.id, rounds, await bob.fairness());
    } finally {
      await app.close();
    }
  });

  it("two instances rotating at once agree: one chain of seeds, each announced when its predecessor started", async () => {
    const apps = [await testApp({ CASINO_SEED_HOURS: 0 }), await testApp({ CASINO_SEED_HOURS: 0 })];
    try {
      const carol = await player(apps[0]!);
      const dave = await player(apps[1]!);
      const rounds: (Round & { userId: bigint })[] = [];
      const began = Date.now();
      for (let wave = 0; wave < 4; wave++) {
        const replies = await Promise.all(
          [carol, dave].flatMap((someone) =>
            apps.map(async (app, on) => {
              const roundId = `wave-${wave}-${on}`;
              const reply = await someone.play(roundId, 1, app);
              expect(reply.statusCode, reply.msg).toBe(200);
              return { kind: 1 as const, roundId, seedHash: reply.data!.seedHash, bet: reply.data!.bet, userId: someone.bettor.id };
            }),
          ),
        );
        rounds.push(...replies);
      }
      expect((await carol.play("wave-last")).statusCode).toBe(200);
      const fairness = await carol.fairness();
      expect(await sql<{ active: string; next: string }>`
        select count(*) filter (where started_at is not null and retired_at is null)::int as active,
               count(*) filter (where started_at is null)::int as next from casino_seeds`.execute(db).then((result) => result.rows[0])).toEqual({ active: 1, next: 1 });
      // Oldest first: each seed retired the moment its successor started, and its successor was announced when it started.
      const chain = fairness.revealed.filter((seed) => Date.parse(seed.from) >= began).reverse();
      expect(chain.length).toBeGreaterThan(1);
      for (let k = 1; k < chain.length; k++) {
        expect(chain[k]!.from).toBe(chain[k - 1]!.to);
        expect(chain[k]!.announced).toBe(chain[k - 1]!.from);
      }
      expect(fairness.active.since).toBe(chain.at(-1)!.to);
      expect(fairness.active.announced).toBe(chain.at(-1)!.from);
      expect(fairness.next.announced).toBe(fairness.active.since);
      for (const round of rounds) {
        const seed = fairness.revealed.find((revealed) => revealed.seedHash === round.seedHash);
        expect(seed, round.roundId).toBeDefined();
        expect(Date.parse(seed!.announced)).toBeLessThanOrEqual(Date.parse(round.bet.createdAt));
      }
      expectRoundsCheck(carol.bettor.id, rounds.filter((round) => round.userId === carol.bettor.id), fairness);
      expectRoundsCheck(dave.bettor.id, rounds.filter((round) => round.userId === dave.bettor.id), fairness);
      expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });
});
