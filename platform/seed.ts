/**
 * Deterministic demo data. The same options always produce the same accounts, users and
 * bets (timestamps are spread over the days before seeding, so reports show recent
 * activity). Seeding tops up: it inserts only what is missing, so running it again, or
 * with larger counts for a benchmark, is safe. Balances come from opening transfers out
 * of the house, so the ledger accounts for every unit from the first row.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { sql } from "kysely";
import { GAME_FLAGS, ROLE, STAFF_FLAGS, type GameFlag, type StaffFlag } from "../protocol/wire.js";
import { exposureOf, settlementOf, type Priced } from "./modules/bets/arithmetic.js";
import { partnerChain, tallyPending, type PendingSums } from "./modules/bets/repository.js";
import { findBetAccounts, gameOf, positionChangeOf, positionKeyOf, writeSportsBets, type BetAccounts } from "./modules/bets/service.js";
import { apply, findSystemAccountId, fundFromHouse, recordOpenings } from "./modules/ledger/service.js";
import { createFeedStore } from "./modules/sports/repository.js";
import { DEFAULT_FEED_SEED } from "./env.js";
import { createFeedSimulator } from "./sim/feed.js";
import { WITHDRAWAL_RESERVE } from "./modules/requests/service.js";
import { storeImage } from "./uploads.js";
import { readSetting, writeSetting } from "./modules/settings/repository.js";
import { SLIDER_FOLDER } from "./modules/settings/service.js";
import { storePassword, type Revealer } from "./security/reveal.js";
import type { CopyRows, CopyValue } from "./db/copy.js";
import type { Db } from "./db/index.js";
import type { Flags, Shares } from "./db/schema.js";

export const DEMO_ACCOUNTS = {
  admin: { username: "admin", password: "admin123" },
  staff: { username: "staff", password: "staff123" },
  partner: { username: "panel1", password: "panel123" },
} as const;
/** The password of every seeded end user. */
export const DEMO_USER_PASSWORD = "user123";

export const PARTNER_ROLES = ["Admin", "Super Master", "Master", "Agent"] as const;

/**
 * `uploadsDir`: where the demo slider image goes; without it the slider starts empty.
 * `settledShare`: the part of the seeded bets that is settled history (the reports' benchmark seeds 1).
 * `copy`: COPY … FROM STDIN on the seed's own connection (platform/db/copy.ts), for PostgreSQL at
 * scale; without it users and bets go in as multi-row inserts (PGlite).
 */
export type SeedOptions = { users?: number; bets?: number; uploadsDir?: string; settledShare?: number; copy?: CopyRows };
export const DEFAULT_SEED = { users: 200, bets: 1000 } as const;

const BATCH_ROWS = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

const flagsOn = (flags: readonly (GameFlag | StaffFlag)[]): Flags => Object.fromEntries(flags.map((flag) => [flag, true]));
const PARTNER_SHARE: Shares = { cricket: 80, football: 80, tennis: 80, bookmaker: 75, fancy: 75, casino: 70 };
/** 100,000.00 in minor units. */
const PARTNER_BALANCE = 10_000_000n;

/** A stable pseudo-random number in [0, 1) for (index, stream): the seed's only randomness. */
function rand(index: number, stream: number): number {
  let h = Math.imul(index ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(stream + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return ((h ^ (h >>> 16)) >>> 0) / 2 ** 32;
}
const pick = <T>(items: readonly T[], index: number, stream: number): T =>
  items[Math.floor(rand(index, stream) * items.length)]!;

export const seedUsername = (index: number) => `user${String(index).padStart(4, "0")}`;

export type SeedSummary = { admins: Record<keyof typeof DEMO_ACCOUNTS, string>; users: number; bets: number };

/** A password's scrypt hash and its sealed copy (security/reveal.ts). */
type Secret = { password_hash: string; password_sealed: string };

export async function seed(db: Db, revealer: Revealer, options: SeedOptions = {}): Promise<SeedSummary> {
  const users = options.users ?? DEFAULT_SEED.users;
  const bets = options.bets ?? DEFAULT_SEED.bets;
  // Hashing is slow (scrypt); do it before taking the lock. One hash serves every end user.
  const [admin, staff, partner, user] = await Promise.all(
    [...Object.values(DEMO_ACCOUNTS).map((account) => account.password), DEMO_USER_PASSWORD].map(
      async (password): Promise<Secret> => {
        const stored = await storePassword(password, revealer);
        return { password_hash: stored.hash, password_sealed: stored.sealed };
      },
    ),
  );
  const seededAt = Date.now();

  const summary = await db.transaction().execute(async (trx) => {
    // Two instances seeding an empty PostgreSQL at once take turns.
    await sql`select pg_advisory_xact_lock(hashtext('betdesk.seed'))`.execute(trx);
    const ids = await seedAccounts(trx, { admin: admin!, staff: staff!, partner: partner! });
    const wanted = { users, bets, settledShare: options.settledShare ?? SETTLED_SHARE };
    if (options.copy) {
      await copyUsers(trx, options.copy, users, ids, user!, seededAt);
      await copyBets(trx, options.copy, wanted, seededAt);
    } else {
      await seedUsers(trx, users, ids, user!, seededAt);
      await seedBets(trx, wanted, seededAt);
    }
    await seedRequests(trx, ids.admin, seededAt);
    return {
      admins: { admin: String(ids.admin), staff: String(ids.staff), partner: String(ids.partner) },
      users: await count(trx, "users"),
      bets: await count(trx, "sports_bets"),
    };
  });
  if (options.uploadsDir) await seedSlider(db, join(options.uploadsDir, SLIDER_FOLDER));
  // Fresh statistics and visibility maps at once (PGlite has no autovacuum): the lists
  // rely on the planner's estimates and on index-only scans. VACUUM cannot run in a transaction.
  await sql`vacuum analyze`.execute(db);
  return summary;
}

/** Seeds into an empty database only (no admin yet); true when it did. */
export async function seedIfEmpty(db: Db, revealer: Revealer, options: SeedOptions = {}): Promise<boolean> {
  if (await db.selectFrom("admins").select("id").limit(1).executeTakeFirst()) return false;
  await seed(db, revealer, options);
  return true;
}

/** A 640×240 PNG banner shipped with the platform (the other settings are seeded by migrations 006 and 012). */
const DEMO_SLIDER_IMAGE = new URL("./demo-slider.png", import.meta.url);

/** One slider image, into a slider that has none. */
async function seedSlider(db: Db, sliderDir: string): Promise<void> {
  if (await db.selectFrom("slider_images").select("id").limit(1).executeTakeFirst()) return;
  const name = await storeImage(sliderDir, { bytes: await readFile(DEMO_SLIDER_IMAGE), ext: "png" });
  await db.insertInto("slider_images").values({ file_name: name }).execute();
}

async function count(db: Db, table: "users" | "sports_bets"): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function seedAccounts(db: Db, secrets: Record<keyof typeof DEMO_ACCOUNTS, Secret>) {
  await db
    .insertInto("partner_roles")
    .values(PARTNER_ROLES.map((name, i) => ({ name, level: i + 1 })))
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const topRole = await db
    .selectFrom("partner_roles")
    .select("id")
    .where("name", "=", PARTNER_ROLES[0])
    .executeTakeFirstOrThrow();

  const admin = await insertAdmin(db, {
    username: DEMO_ACCOUNTS.admin.username,
    ...secrets.admin,
    role: ROLE.superAdmin,
    permissions: JSON.stringify(flagsOn([...GAME_FLAGS, ...STAFF_FLAGS])),
  });
  const staff = await insertAdmin(db, {
    username: DEMO_ACCOUNTS.staff.username,
    ...secrets.staff,
    role: ROLE.staff,
    permissions: JSON.stringify(flagsOn(["deposits", "withdraws"])),
    parent_id: admin.id,
  });
  const partner = await insertAdmin(db, {
    username: DEMO_ACCOUNTS.partner.username,
    ...secrets.partner,
    role: ROLE.partner,
    permissions: JSON.stringify(flagsOn(GAME_FLAGS)),
    partner_role_id: topRole.id,
    parent_id: admin.id,
    share: JSON.stringify(PARTNER_SHARE),
    balance: PARTNER_BALANCE,
  });
  if (partner.inserted) {
    await recordOpenings(db, admin.id, [{ kind: "admin", id: partner.id, balance: PARTNER_BALANCE }]);
  }
  // panel1 receives the users the super admin and staff create, unless an operator chose another.
  if ((await readSetting(db, "default-admin")) === null) await writeSetting(db, "default-admin", { id: String(partner.id) });
  return { admin: admin.id, staff: staff.id, partner: partner.id };
}

/** User i: a pure function of i. */
function userRow(i: number, parents: readonly bigint[], secret: Secret, seededAt: number) {
  return {
    username: seedUsername(i),
    ...secret,
    mob_no: `9${String(800_000_000 + i).padStart(9, "0")}`,
    parent_id: parents[i % parents.length]!,
    balance: BigInt(Math.floor(rand(i, 1) * 50_000)) * 100n,
    bonus: rand(i, 2) < 0.3 ? BigInt(Math.floor(rand(i, 3) * 500)) * 100n : 0n,
    login_enabled: rand(i, 4) > 0.03,
    bet_enabled: rand(i, 5) > 0.05,
    permissions: JSON.stringify(Object.fromEntries(GAME_FLAGS.map((flag, f) => [flag, rand(i, 10 + f) > 0.1]))),
    demo_password: true,
    created_at: new Date(seededAt - Math.floor(rand(i, 6) * 30 * DAY_MS)),
  };
}

/** Existing usernames are skipped, so re-seeding tops up. */
async function seedUsers(
  db: Db,
  users: number,
  ids: { admin: bigint; partner: bigint },
  secret: Secret,
  seededAt: number,
) {
  const parents = [ids.admin, ids.partner];
  for (let start = 1; start <= users; start += BATCH_ROWS) {
    const rows = [];
    for (let i = start; i < Math.min(start + BATCH_ROWS, users + 1); i++) rows.push(userRow(i, parents, secret, seededAt));
    const inserted = await db
      .insertInto("users")
      .values(rows)
      .onConflict((oc) => oc.expression(sql`lower(username)`).doNothing())
      .returning(["id", "balance"])
      .execute();
    await recordOpenings(db, ids.admin, inserted.map((row) => ({ kind: "user" as const, ...row })));
  }
}

const USER_COLUMNS = [
  "username",
  "password_hash",
  "password_sealed",
  "mob_no",
  "parent_id",
  "balance",
  "bonus",
  "login_enabled",
  "bet_enabled",
  "permissions",
  "demo_password",
  "created_at",
] as const;

/**
 * seedUsers through COPY: the missing seeded users in one stream, then their opening balances
 * as one transfer from the house written in bulk. Writers of users wait until the seed commits,
 * so the new rows are exactly those above the highest id before.
 */
async function copyUsers(db: Db, copy: CopyRows, users: number, ids: { admin: bigint; partner: bigint }, secret: Secret, seededAt: number) {
  await sql`lock table users in share row exclusive mode`.execute(db);
  const present = new Set((await db.selectFrom("users").select("username_key").where("username_key", "like", "user%").execute()).map((row) => row.username_key));
  const { rows } = await sql<{ before: bigint }>`select coalesce(max(id), 0) as before from users`.execute(db);
  const parents = [ids.admin, ids.partner];
  await copy("users", USER_COLUMNS, (function* () {
    for (let i = 1; i <= users; i++) {
      if (present.has(seedUsername(i))) continue;
      const row = userRow(i, parents, secret, seededAt);
      yield USER_COLUMNS.map((column) => row[column]);
    }
  })());
  const { rows: opened } = await sql<{ total: string }>`select coalesce(sum(balance), 0)::text as total from users where id > ${rows[0]!.before}`.execute(db);
  const total = BigInt(opened[0]!.total);
  if (total === 0n) return;
  const transfer = await newTransfer(db, "opening", ids.admin, "");
  await sql`
    insert into ledger_entries (transfer_id, account_kind, account_id, amount, balance_after)
    select ${transfer}, 'user', id, balance, balance from users where id > ${rows[0]!.before} and balance <> 0 order by id`.execute(db);
  await moveHouse(db, transfer, { kind: "admin", id: ids.admin }, -total);
}

/** A ledger transfer's head, for legs written in bulk. */
async function newTransfer(db: Db, kind: "opening" | "bet-place", actorId: bigint, remark: string): Promise<bigint> {
  const row = await db.insertInto("ledger_transfers").values({ kind, actor_id: actorId, remark }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

/** The leg of a bulk transfer on one house-side account (the house, the exposure account): `amount` moved, its balance after. */
async function moveHouse(db: Db, transfer: bigint, account: { kind: "admin" | "system"; id: bigint }, amount: bigint): Promise<void> {
  if (amount === 0n) return;
  const table = account.kind === "admin" ? "admins" : "system_accounts";
  const { balance } = await db
    .updateTable(table)
    .set({ balance: sql`balance + ${amount}` })
    .where("id", "=", account.id)
    .returning("balance")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("ledger_entries")
    .values({ transfer_id: transfer, account_kind: account.kind, account_id: account.id, amount, balance_after: balance })
    .execute();
}

type AdminValues = Secret & {
  username: string;
  role: number;
  permissions: string;
  partner_role_id?: bigint;
  parent_id?: bigint;
  share?: string;
  balance?: bigint;
};

/** Inserts a demo admin unless one with that username exists; returns its id either way. */
async function insertAdmin(db: Db, values: AdminValues): Promise<{ id: bigint; inserted: boolean }> {
  const inserted = await db
    .insertInto("admins")
    .values({ ...values, demo_password: true })
    .onConflict((oc) => oc.expression(sql`lower(username)`).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, inserted: true };
  const row = await db
    .selectFrom("admins")
    .select("id")
    .where(sql<string>`lower(username)`, "=", values.username.toLowerCase())
    .executeTakeFirstOrThrow();
  return { id: row.id, inserted: false };
}

const SEEDED_REQUESTS = { deposits: 24, withdraws: 8 } as const;

/**
 * Pending requests for the approval desk, into a database that has none: deposits of every
 * type (some with a coupon) and withdrawals, whose amounts are reserved as the end-user API
 * would, so the ledger holds from the first row.
 */
async function seedRequests(db: Db, houseId: bigint, seededAt: number): Promise<void> {
  if (await db.selectFrom("deposit_requests").select("id").limit(1).executeTakeFirst()) return;
  const players = await db
    .selectFrom("users")
    .select(["id", "balance"])
    .where("username_key", "like", "user%")
    .where("login_enabled", "=", true)
    .where("balance", ">=", 100_000n)
    .orderBy("id")
    .limit(SEEDED_REQUESTS.deposits)
    .execute();
  if (players.length === 0) return;
  const createdAt = (i: number, stream: number) => new Date(seededAt - Math.floor(rand(i, stream) * 2 * DAY_MS));

  const deposits = Array.from({ length: SEEDED_REQUESTS.deposits }, (_, i) => {
    const type = i % 3;
    return {
      user_id: players[i % players.length]!.id,
      // USDT requests are in USDT: smaller numbers.
      amount: BigInt(type === 2 ? 10 + Math.floor(rand(i, 40) * 190) : (1 + Math.floor(rand(i, 40) * 100)) * 100) * 100n,
      type,
      utr: `UTR${String(Math.floor(rand(i, 41) * 1e10)).padStart(10, "0")}`,
      coupon_code: i % 5 === 0 ? "WELCOME10" : null,
      created_at: createdAt(i, 42),
    };
  });
  await db.insertInto("deposit_requests").values(deposits).execute();

  const reserve = await findSystemAccountId(db, WITHDRAWAL_RESERVE);
  for (let i = 0; i < Math.min(SEEDED_REQUESTS.withdraws, players.length); i++) {
    const player = players[i]!;
    const amount = (player.balance / 4n / 10_000n) * 10_000n;
    const row = await db
      .insertInto("withdraw_requests")
      .values({
        user_id: player.id,
        amount,
        bank: JSON.stringify({ holder: "Demo Player", bank: pick(["State Bank", "HDFC Bank"], i, 43), accNo: `5010${i}8842`, ifsc: "SBIN0001234", branch: "Main" }),
        created_at: createdAt(i, 44),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await apply(db, {
      kind: "withdraw-reserve",
      actorId: houseId,
      remark: `withdraw request ${row.id}`,
      from: { kind: "user", id: player.id },
      to: { kind: "system", id: reserve },
      amount,
    });
  }
}

const SETTLED = ["SUCCESS", "FAIL", "ABANDONED"] as const;
/** By default 1 in 5 seeded bets is settled history; the rest wait on the desk. */
const SETTLED_SHARE = 0.2;

type SeedBet = Parameters<typeof writeSportsBets>[1][number] & { status: "PENDING" | (typeof SETTLED)[number]; created_at: Date };
type BetPlan = { users: number; bets: number; settledShare: number };

/**
 * Bet i is a pure function of i, so topping up from the current count stays deterministic.
 * Bets stand on the markets of the feed's opening state (the simulator under the default
 * FEED_SEED, which seeding writes). Answers how many bets exist, and bet i with its pricing
 * (undefined when its bettor is not seeded).
 */
async function planBets(db: Db, { users, settledShare }: BetPlan, seededAt: number) {
  const feed = createFeedSimulator({ seed: DEFAULT_FEED_SEED, store: createFeedStore(db), now: () => seededAt });
  await feed.init();
  const existing = await count(db, "sports_bets");
  const markets = feed.markets().filter((market) => market.status === "OPEN");
  const events = new Map(feed.events().map((event) => [event.eventId, event]));
  const seededUsers = await db
    .selectFrom("users")
    .select(["id", "username", "parent_id"])
    .where(sql<string>`lower(username)`, "like", "user%")
    .execute();
  const byName = new Map(seededUsers.map((row) => [row.username, row]));
  const betAt = (i: number): { bet: SeedBet; priced: Priced & { exposure: bigint }; parent: bigint } | undefined => {
    const user = byName.get(seedUsername(1 + Math.floor(rand(i, 20) * users)));
    if (user === undefined) return undefined;
    const market = pick(markets, i, 21);
    const runner = pick(market.runners, i, 22);
    const isBack = rand(i, 23) < 0.6;
    const quote = (isBack ? runner.back : runner.lay)!;
    const odds = market.type === "fancy" ? quote.size! : quote.price;
    const amount = BigInt(100 + Math.floor(rand(i, 25) * 100) * 100) * 100n; // 100 – 10,000 in whole units
    const unpriced = { type: market.type, isBack, amount, x: BigInt(Math.round(quote.price * 100)), odds: BigInt(Math.round(odds * 100)) };
    const priced = { ...unpriced, exposure: exposureOf(unpriced) };
    const status = rand(i, 28) < settledShare ? pick(SETTLED, i, 29) : ("PENDING" as const);
    const createdAt = new Date(seededAt - Math.floor(rand(i, 30) * 7 * DAY_MS));
    const bet: SeedBet = {
      user_id: user.id,
      sport: events.get(market.eventId)!.sport,
      event_id: market.eventId,
      market_id: market.marketId,
      market: market.name,
      market_type: market.type,
      runner: runner.name,
      is_back: isBack,
      price: quote.price.toFixed(2),
      odds: odds.toFixed(2),
      amount,
      exposure: priced.exposure,
      status,
      created_at: createdAt,
      settled_at: status === "PENDING" ? null : new Date(createdAt.getTime() + DAY_MS / 24),
    };
    return { bet, priced, parent: user.parent_id };
  };
  return { existing, betAt, bettors: seededUsers, accounts: await findBetAccounts(db) };
}

/**
 * Bets are written as the end-user API writes them (bets/service.ts writeSportsBets). So that
 * balances stay as seeded, each batch's bettors first receive the exposure their open bets
 * reserve (an opening transfer from the house). Settled history records its result for the
 * reports but moves no money: its outcome is part of the opening balances.
 */
async function seedBets(db: Db, plan: BetPlan, seededAt: number): Promise<void> {
  const { existing, betAt, bettors, accounts } = await planBets(db, plan, seededAt);
  for (let start = existing + 1; start <= plan.bets && bettors.length > 0; start += BATCH_ROWS) {
    const rows: SeedBet[] = [];
    for (let i = start; i < Math.min(start + BATCH_ROWS, plan.bets + 1); i++) {
      const planned = betAt(i);
      if (planned) rows.push(planned.bet);
    }
    const reserved = new Map<bigint, bigint>();
    for (const row of rows) if (row.status === "PENDING") reserved.set(row.user_id, (reserved.get(row.user_id) ?? 0n) + row.exposure);
    await fundFromHouse(db, accounts.house.id, [...reserved].map(([id, amount]) => ({ kind: "user" as const, id, amount })));
    await writeSportsBets(db, rows, accounts);
  }
}

const BET_COLUMNS = [
  "id",
  "user_id",
  "sport",
  "event_id",
  "market_id",
  "market",
  "market_type",
  "runner",
  "is_back",
  "price",
  "odds",
  "amount",
  "exposure",
  "status",
  "profit",
  "loss",
  "created_at",
  "settled_at",
] as const;
const POSITION_COLUMNS = ["event_id", "market_id", "runner", "line", "user_id", "if_won", "if_lost", "stake"] as const;
/** Bets generated and streamed per round of COPYs: bounded memory at any count. */
const COPY_CHUNK = 100_000;

/**
 * seedBets through COPY, with the same rows and the same money: bets with their ids drawn up
 * front, settled bets' results (the reports' rollup follows each COPY, migration 009's trigger),
 * and for the open bets, summed in bulk, the pending counts, the market book's positions and the
 * exposure. The exposure moves through the ledger in two transfers per seeding rather than one
 * per bet: an opening from the house crediting each bettor what its open bets reserve, and a
 * `bet-place` from each bettor to the exposure account; each bettor's balance ends as seeded.
 */
async function copyBets(db: Db, copy: CopyRows, plan: BetPlan, seededAt: number): Promise<void> {
  await sql`lock table sports_bets in share row exclusive mode`.execute(db);
  const { existing, betAt, bettors, accounts } = await planBets(db, plan, seededAt);
  if (existing >= plan.bets || bettors.length === 0) return;
  const chains = await chainsOf(db, bettors);
  await sql`create temp table seed_positions (event_id text, market_id text, runner text, line numeric, user_id bigint, if_won bigint, if_lost bigint, stake bigint) on commit drop`.execute(db);
  const { rows } = await sql<{ next: bigint }>`select nextval(pg_get_serial_sequence('sports_bets', 'id')) as next`.execute(db);
  let nextId = rows[0]!.next;
  const exposures = new Map<bigint, bigint>();
  const pending: SeedBet[] = [];
  const counts = new Map<string, PendingSums>();

  for (let start = existing + 1; start <= plan.bets; start += COPY_CHUNK) {
    const bets: CopyValue[][] = [];
    const results: CopyValue[][] = [];
    const positions: CopyValue[][] = [];
    for (let i = start; i < Math.min(start + COPY_CHUNK, plan.bets + 1); i++) {
      const planned = betAt(i);
      if (!planned) continue;
      const { bet, priced, parent } = planned;
      const id = nextId++;
      let outcome = { profit: 0n, loss: 0n };
      if (bet.status === "PENDING") {
        exposures.set(bet.user_id, (exposures.get(bet.user_id) ?? 0n) + bet.exposure);
        pending.push(bet);
        const key = positionKeyOf(bet);
        const change = positionChangeOf(priced);
        positions.push([key.event_id, key.market_id, key.runner, key.line, key.user_id, change.ifWon, change.ifLost, change.stake]);
      } else {
        const settled = settlementOf(priced, bet.status);
        outcome = settled;
        const game = gameOf(bet.sport, bet.market_type);
        results.push(["sports", id, game, bet.user_id, settled.houseResult, chains.get(`${parent}:${game}`)!]);
      }
      bets.push([id, bet.user_id, bet.sport, bet.event_id, bet.market_id, bet.market, bet.market_type, bet.runner, bet.is_back, bet.price, bet.odds, bet.amount, bet.exposure, bet.status, outcome.profit, outcome.loss, bet.created_at, bet.settled_at ?? null]);
    }
    await copy("sports_bets", BET_COLUMNS, bets);
    await copy("bet_results", ["bet_kind", "bet_id", "game", "user_id", "house_result", "chain"], results);
    await copy("seed_positions", POSITION_COLUMNS, positions);
    for (const [key, sums] of tallyPending(pending.splice(0))) {
      const held = counts.get(key) ?? { n: 0n, stake: 0n, exposure: 0n };
      counts.set(key, { n: held.n + sums.n, stake: held.stake + sums.stake, exposure: held.exposure + sums.exposure });
    }
  }
  await sql`select setval(pg_get_serial_sequence('sports_bets', 'id'), ${nextId - 1n})`.execute(db);
  await sql`
    insert into market_positions as kept (event_id, market_id, runner, line, user_id, if_won, if_lost, stake, bets)
    select event_id, market_id, runner, line, user_id, sum(if_won), sum(if_lost), sum(stake), count(*) from seed_positions
     group by event_id, market_id, runner, line, user_id
    on conflict (market_id, runner, line, user_id) do update set
      if_won = kept.if_won + excluded.if_won, if_lost = kept.if_lost + excluded.if_lost,
      stake = kept.stake + excluded.stake, bets = kept.bets + excluded.bets`.execute(db);
  await sql`
    insert into market_book_totals as kept (event_id, market_id, runner, line, if_won, if_lost, stake, bets)
    select event_id, market_id, runner, line, sum(if_won), sum(if_lost), sum(stake), count(*) from seed_positions
     group by event_id, market_id, runner, line
    on conflict (market_id, runner, line) do update set
      if_won = kept.if_won + excluded.if_won, if_lost = kept.if_lost + excluded.if_lost,
      stake = kept.stake + excluded.stake, bets = kept.bets + excluded.bets`.execute(db);
  // The seeded events' bettors recounted from their positions (the seed writes alone).
  await sql`
    insert into market_event_bettors (event_id, user_id, positions)
    select event_id, user_id, count(*) from market_positions where event_id in (select event_id from seed_positions) group by event_id, user_id
    on conflict (event_id, user_id) do update set positions = excluded.positions`.execute(db);
  await sql`
    insert into market_event_bettor_counts (event_id, n)
    select event_id, count(*) from market_event_bettors where event_id in (select event_id from seed_positions) group by event_id
    on conflict (event_id) do update set n = excluded.n`.execute(db);
  await sql`create temp table seed_counts (key text, n bigint, stake bigint, exposure bigint) on commit drop`.execute(db);
  await copy("seed_counts", ["key", "n", "stake", "exposure"], [...counts].map(([key, { n, stake, exposure }]) => [key, n, stake, exposure]));
  await sql`
    insert into sports_pending_counts as kept (key, n, stake, exposure) select key, n, stake, exposure from seed_counts
    on conflict (key) do update set n = kept.n + excluded.n, stake = kept.stake + excluded.stake, exposure = kept.exposure + excluded.exposure`.execute(db);
  await reserveExposure(db, copy, exposures, accounts);
}

/**
 * The two bulk transfers that reserve the open bets' exposure: the house credits each bettor,
 * then each bettor pays the exposure account. The bettors' rows keep their balances.
 */
async function reserveExposure(db: Db, copy: CopyRows, exposures: Map<bigint, bigint>, { house, exposure }: BetAccounts): Promise<void> {
  if (exposures.size === 0) return;
  await sql`create temp table seed_exposure (user_id bigint primary key, amount bigint) on commit drop`.execute(db);
  await copy("seed_exposure", ["user_id", "amount"], exposures);
  const total = [...exposures.values()].reduce((sum, amount) => sum + amount, 0n);
  const funding = await newTransfer(db, "opening", house.id, "");
  await sql`
    insert into ledger_entries (transfer_id, account_kind, account_id, amount, balance_after)
    select ${funding}, 'user', u.id, e.amount, u.balance + e.amount from seed_exposure e join users u on u.id = e.user_id order by u.id`.execute(db);
  await moveHouse(db, funding, { kind: "admin", id: house.id }, -total);
  const placing = await newTransfer(db, "bet-place", house.id, `seeded open bets of ${exposures.size} users`);
  await sql`
    insert into ledger_entries (transfer_id, account_kind, account_id, amount, balance_after)
    select ${placing}, 'user', u.id, -e.amount, u.balance from seed_exposure e join users u on u.id = e.user_id order by u.id`.execute(db);
  await moveHouse(db, placing, { kind: "system", id: exposure.id }, total);
}

/** The partner chain (as JSON) each game's results record for the users under each seeded parent: `parent:game`. */
async function chainsOf(db: Db, bettors: { id: bigint; parent_id: bigint }[]): Promise<Map<string, string>> {
  const someUserOf = new Map(bettors.map((user) => [user.parent_id, user.id]));
  const chains = new Map<string, string>();
  for (const [parent, user] of someUserOf) {
    for (const game of GAME_FLAGS) chains.set(`${parent}:${game}`, JSON.stringify(await partnerChain(db, user, game)));
  }
  return chains;
}
