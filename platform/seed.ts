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
import { exposureOf } from "./modules/bets/arithmetic.js";
import { findBetAccounts, writeSportsBets } from "./modules/bets/service.js";
import { apply, findSystemAccountId, fundFromHouse, recordOpenings } from "./modules/ledger/service.js";
import { createFeedStore } from "./modules/sports/repository.js";
import { DEFAULT_FEED_SEED } from "./env.js";
import { createFeedSimulator } from "./sim/feed.js";
import { WITHDRAWAL_RESERVE } from "./modules/requests/service.js";
import { storeImage } from "./uploads.js";
import { readSetting, writeSetting } from "./modules/settings/repository.js";
import { SLIDER_FOLDER } from "./modules/settings/service.js";
import { storePassword, type Revealer } from "./security/reveal.js";
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
 */
export type SeedOptions = { users?: number; bets?: number; uploadsDir?: string; settledShare?: number };
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
    await seedUsers(trx, users, ids, user!, seededAt);
    await seedBets(trx, { users, bets, settledShare: options.settledShare ?? SETTLED_SHARE }, seededAt);
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

/** User i is a pure function of i; existing usernames are skipped, so re-seeding tops up. */
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
    for (let i = start; i < Math.min(start + BATCH_ROWS, users + 1); i++) {
      rows.push({
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
      });
    }
    const inserted = await db
      .insertInto("users")
      .values(rows)
      .onConflict((oc) => oc.expression(sql`lower(username)`).doNothing())
      .returning(["id", "balance"])
      .execute();
    await recordOpenings(db, ids.admin, inserted.map((row) => ({ kind: "user" as const, ...row })));
  }
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

/**
 * Bet i is a pure function of i, so topping up from the current count stays deterministic.
 * Bets stand on the markets of the feed's opening state (the simulator under the default
 * FEED_SEED, which seeding writes) and are written as the end-user API writes them
 * (bets/service.ts writeSportsBets). So that balances stay as seeded, each batch's bettors
 * first receive the exposure their open bets reserve (an opening transfer from the house).
 * Settled history records its result for the reports but moves no money: its outcome is part
 * of the opening balances.
 */
async function seedBets(
  db: Db,
  { users, bets, settledShare }: { users: number; bets: number; settledShare: number },
  seededAt: number,
): Promise<void> {
  const feed = createFeedSimulator({ seed: DEFAULT_FEED_SEED, store: createFeedStore(db), now: () => seededAt });
  await feed.init();
  const existing = await count(db, "sports_bets");
  if (existing >= bets) return;
  const markets = feed.markets().filter((market) => market.status === "OPEN");
  const events = new Map(feed.events().map((event) => [event.eventId, event]));
  const seededUsers = await db
    .selectFrom("users")
    .select(["id", "username"])
    .where(sql<string>`lower(username)`, "like", "user%")
    .execute();
  const byName = new Map(seededUsers.map((row) => [row.username, row]));
  const accounts = await findBetAccounts(db);

  for (let start = existing + 1; start <= bets && byName.size > 0; start += BATCH_ROWS) {
    const rows: Parameters<typeof writeSportsBets>[1] = [];
    for (let i = start; i < Math.min(start + BATCH_ROWS, bets + 1); i++) {
      const user = byName.get(seedUsername(1 + Math.floor(rand(i, 20) * users)));
      if (user === undefined) continue;
      const market = pick(markets, i, 21);
      const runner = pick(market.runners, i, 22);
      const isBack = rand(i, 23) < 0.6;
      const quote = (isBack ? runner.back : runner.lay)!;
      const odds = market.type === "fancy" ? quote.size! : quote.price;
      const amount = BigInt(100 + Math.floor(rand(i, 25) * 100) * 100) * 100n; // 100 – 10,000 in whole units
      const exposure = exposureOf({ type: market.type, isBack, amount, x: BigInt(Math.round(quote.price * 100)), odds: BigInt(Math.round(odds * 100)) });
      const status = rand(i, 28) < settledShare ? pick(SETTLED, i, 29) : ("PENDING" as const);
      const createdAt = new Date(seededAt - Math.floor(rand(i, 30) * 7 * DAY_MS));
      rows.push({
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
        exposure,
        status,
        created_at: createdAt,
        settled_at: status === "PENDING" ? null : new Date(createdAt.getTime() + DAY_MS / 24),
      });
    }
    const reserved = new Map<bigint, bigint>();
    for (const row of rows) if (row.status === "PENDING") reserved.set(row.user_id, (reserved.get(row.user_id) ?? 0n) + row.exposure);
    await fundFromHouse(db, accounts.house.id, [...reserved].map(([id, amount]) => ({ kind: "user" as const, id, amount })));
    await writeSportsBets(db, rows, accounts);
  }
}
