/**
 * Property: every POST route of the platform answers a hostile body with a 4xx and changes
 * nothing (row counts, balances, settings, sessions, and the ledger invariant). A body is
 * hostile when one of its fields holds a value that field must refuse (a wrong type, control
 * characters, a string too long, a huge, tiny, negative, NaN-like or over-precise number), or
 * when it is not an object at all; extra keys and an own `__proto__` key ride along.
 *
 * Table-driven: a new route is one line in ROUTES, naming a valid body and its fields' kinds.
 * Fixed seed and bounded runs, so a failure replays exactly.
 *
 * Property: every date query parameter (a report's or a bet history's days, the market results'
 * `since`) answers a date outside the years DAY_YEARS, a date that does not exist, an offset
 * beyond ±23:59 or text that is no date with a 400 naming the parameter, and changes nothing.
 */
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seal } from "../../protocol/envelope.js";
import { CONTROL_CHARACTER } from "../../protocol/rules.js";
import { NAMED_ACCOUNTS_MAX, SETTLE_BETS_MAX } from "../../protocol/wire.js";
import { MAX_GREEN_EVENTS } from "../../platform/modules/sports/routes.js";
import { DAY_YEARS } from "../../platform/validation/days.js";
import { call, createAdmin, createBettor, createMarket, footprint, freshIp, ledgerBreaches, login, testApp, testDb, TEST_SECRET } from "./support/platform.js";

const SEED = 7;
const RUNS_PER_DATE_PARAMETER = 60;
const RUNS_PER_ROUTE = 40;

/** What a field accepts, so the generator knows what it must refuse. */
type Kind =
  | { type: "money" }
  | { type: "stake" }
  | { type: "price" }
  | { type: "percent" }
  | { type: "text"; max: number }
  | { type: "id" }
  | { type: "bool" }
  | { type: "choice"; values: number[] }
  | { type: "object" }
  | { type: "list"; item: Kind; max: number };

const money = { type: "money" } as const;
/** A bet's stake: money of at least the minimum stake (1.00). */
const stake = { type: "stake" } as const;
/** A bet's price, refused near the lowest one a market quotes (1.01). */
const price = { type: "price" } as const;
const percent = { type: "percent" } as const;
const text = (max: number): Kind => ({ type: "text", max });
const id = { type: "id" } as const;
const bool = { type: "bool" } as const;
const choice = (...values: number[]): Kind => ({ type: "choice", values });
const object = { type: "object" } as const;
const list = (item: Kind, max: number): Kind => ({ type: "list", item, max });

type Caller = "admin" | "player" | "none";
type Route = { path: string; as: Caller; body: () => Record<string, unknown>; fields: Record<string, Kind> };

// Filled in beforeAll: the ids the valid bodies name.
const ids = { user: "", deposit: "", withdraw: "", event: "", market: "" };
/** The smallest valid PNG (1×1, transparent). */
const PNG_1PX = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";
const BANK = { holder: "Asha Rao", bank: "State Bank", accNo: "1234567890", ifsc: "SBIN0001234", branch: "Pune" };

const ROUTES: Route[] = [
  { path: "/login", as: "none", body: () => ({ username: "admin", password: "wrong-password" }), fields: { username: text(64), password: text(128) } },
  { path: "/logout", as: "admin", body: () => ({}), fields: {} },
  { path: "/change-password", as: "admin", body: () => ({ curPassword: "wrong-password", password: "new-secret-1" }), fields: { curPassword: text(128), password: text(128) } },
  {
    path: "/add-user",
    as: "admin",
    body: () => ({ username: "prop_user", password: "secret-1", repeatPassword: "secret-1", mobNo: "9876543210", permissions: {}, isPartner: false }),
    fields: { username: text(32), password: text(128), mobNo: text(15), permissions: object, isPartner: bool },
  },
  ...["/user-deposit", "/user-withdraw"].map((path): Route => ({
    path,
    as: "admin",
    body: () => ({ user: ids.user, amount: 1, remark: "ok", isPartner: false, requestId: "prop-request-1" }),
    fields: { user: id, amount: money, remark: text(100), isPartner: bool, requestId: text(64) },
  })),
  { path: "/change-user-password", as: "admin", body: () => ({ user: ids.user, password: "secret-99", isPartner: false }), fields: { user: id, password: text(128), isPartner: bool } },
  {
    path: "/change-permissions",
    as: "admin",
    body: () => ({ user: ids.user, isPartner: false, permissions: { cricket: true }, bet: true, login: true }),
    fields: { user: id, isPartner: bool, permissions: object, bet: bool, login: bool },
  },
  {
    path: "/b2c/update-deposit",
    as: "admin",
    body: () => ({ _id: ids.deposit, status: 2 }),
    fields: { _id: id, status: choice(1, 2), inr: money, inrBonus: money, prnBonus: percent, mainInrBonus: money, mainPrnBonus: percent },
  },
  { path: "/b2c/update-withdraw", as: "admin", body: () => ({ _id: ids.withdraw, status: 2, remark: "ok" }), fields: { _id: id, status: choice(1, 2), remark: text(100) } },
  { path: "/b2c/update-bonus-limits", as: "admin", body: () => ({ maxPercent: 50, maxInr: 1000 }), fields: { maxPercent: percent, maxInr: money } },
  {
    path: "/b2c/update-bank-deatils",
    as: "admin",
    body: () => ({ bankName: "HDFC Bank", holder: "Betdesk Ltd", accNo: "50100234567", ifsc: "HDFC0001234", usdt: "", upiId: [{ value: "betdesk@hdfc", token: "t1" }] }),
    fields: { bankName: text(100), holder: text(100), accNo: text(34), ifsc: text(11), usdt: text(100), upiId: object },
  },
  { path: "/b2c/update-whatsapp", as: "admin", body: () => ({ number: "+919812345678" }), fields: { number: text(16) } },
  { path: "/b2c/update-telegram", as: "admin", body: () => ({ number: "@betdesk" }), fields: { number: text(100) } },
  ...["/b2c/update-bonus", "/b2c/update-main-bonus"].map((path): Route => ({ path, as: "admin", body: () => ({ bonus: 5 }), fields: { bonus: percent } })),
  { path: "/b2c/update-ref-bonus", as: "admin", body: () => ({ bonus: 100 }), fields: { bonus: money } },
  { path: "/b2c/add-coupon", as: "admin", body: () => ({ couponCode: "PROPTEST", bonus: 5 }), fields: { couponCode: text(32), bonus: percent } },
  { path: "/b2c/add-slider", as: "admin", body: () => ({ images: [{ image: PNG_1PX, ext: "png" }] }), fields: { images: object } },
  {
    path: "/b2c/add-admin",
    as: "admin",
    body: () => ({ username: "prop_staff", password: "secret-1", permissions: { report: true } }),
    fields: { username: text(32), password: text(128), permissions: object },
  },
  { path: "/settel-bet", as: "admin", body: () => ({ bet: { _id: "999999999" }, status: 1 }), fields: { bet: object, status: choice(1, 2, 3) } },
  {
    path: "/settle-bets",
    as: "admin",
    body: () => ({ settlements: [{ bet: { _id: "999999999" }, status: 1 }] }),
    fields: { settlements: list(object, SETTLE_BETS_MAX) },
  },
  { path: "/resettle-bet", as: "admin", body: () => ({ bet: { _id: "999999999" }, status: 2 }), fields: { bet: object, status: choice(1, 2, 3) } },
  {
    path: "/api/user/bet",
    as: "player",
    // A lay at 1.02 on an open market: a tiny stake that got past validation would reserve an exposure of nothing.
    body: () => ({ eventId: ids.event, marketId: ids.market, runner: "Alpha", isBack: 0, price: 1.02, amount: 1, requestId: "prop-bet-1" }),
    fields: { eventId: text(64), marketId: text(64), runner: text(128), isBack: choice(0, 1), price, amount: stake, requestId: text(64) },
  },
  {
    path: "/api/user/casino-bet",
    as: "player",
    body: () => ({ providerCode: "EVO", gameCode: "ROULETTE", roundId: "prop-round-1", amount: 10 }),
    fields: { providerCode: text(64), gameCode: text(64), roundId: text(64), amount: stake },
  },
  {
    path: "/api/user/game-bet",
    as: "player",
    body: () => ({ gameId: "TEENPATTI", roundId: "prop-round-2", runnerName: "Player A", amount: 10 }),
    fields: { gameId: text(64), roundId: text(64), runnerName: text(64), amount: stake },
  },
  { path: "/api/sports/market-green", as: "admin", body: () => ({ eventIds: ["no-such-event"] }), fields: { eventIds: list(text(64), MAX_GREEN_EVENTS) } },
  { path: "/api/user/login", as: "none", body: () => ({ username: "nobody", password: "wrong-password" }), fields: { username: text(64), password: text(128) } },
  {
    path: "/api/user/deposit-request",
    as: "player",
    body: () => ({ amount: 10, type: 0, utr: "UTR-1" }),
    fields: { amount: money, type: choice(0, 1, 2), utr: text(128), couponCode: text(32), image: text(0) },
  },
  { path: "/api/user/withdraw-request", as: "player", body: () => ({ amount: 10, bank: BANK }), fields: { amount: money, bank: object } },
];

// ── hostile values ───────────────────────────────────────────────────────────────────────────

const CONTROL = fc.constantFrom("\u0000", "\u0001", "\u0007", "\b", "\t", "\n", "\r", "\u001b", "\u007f", "\u0085", "\u009f");
/** Text with a control character inside it (not at an end, where trimming would drop a tab). */
const withControl = fc.tuple(fc.string({ maxLength: 20 }), CONTROL, fc.string({ maxLength: 20 })).map(([a, c, b]) => `x${a}${c}${b}x`);
const tooLong = (max: number) => fc.integer({ min: max + 1, max: max + 4000 }).map((length) => "y".repeat(length));
const nanLike = fc.constantFrom("NaN", "Infinity", "-Infinity", "1e400", "0x10", "", " ", "1,5");
const notANumber = fc.oneof(nanLike, fc.constant(null), fc.boolean(), fc.constant([]), fc.constant({}), fc.constant([1]), fc.constant({ valueOf: 1 }));
const notAString = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double(), fc.constant([]), fc.constant({}), fc.constant(["a"]));

/** Numbers no money field takes: huge, tiny, negative, zero's neighbours, more than 2 decimals. */
const badAmount = fc.oneof(
  fc.double({ min: 1e9 + 0.01, max: 1e300, noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: 5e-324, max: 0.0049, noNaN: true }),
  fc.double({ min: -1e300, max: -5e-324, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 1, max: 10_000_000 }).filter((n) => n % 10 !== 0).map((n) => n / 1000),
  fc.constantFrom(5e-324, 1e-9, -0.01, 1e15, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE),
);
const badPercent = fc.oneof(
  fc.double({ min: 100.01, max: 1e300, noNaN: true, noDefaultInfinity: true }),
  fc.double({ min: -1e300, max: -5e-324, noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 1, max: 99_999 }).filter((n) => n % 10 !== 0).map((n) => n / 1000),
  fc.constantFrom(1e-9, 5e-324),
);

/** Valid money below the minimum stake: 0.01 to 0.99. */
const belowMinimumStake = fc.integer({ min: 1, max: 99 }).map((cents) => cents / 100);
/** Prices at and around the lowest quote (1.01) that no market offers or no price may be. */
const badPrice = fc.oneof(fc.constantFrom(1, 1.005, 1.009, 1.0101, 1.011, 0, -1.01, 100_000.01), fc.double({ min: 1.0001, max: 1.0199, noNaN: true }));

function hostile(kind: Kind): fc.Arbitrary<unknown> {
  switch (kind.type) {
    case "money":
      return fc.oneof(badAmount, notANumber);
    case "stake":
      return fc.oneof(belowMinimumStake, badAmount, notANumber);
    case "price":
      return fc.oneof(badPrice, badAmount, notANumber);
    case "percent":
      return fc.oneof(badPercent, notANumber);
    case "text":
      return fc.oneof(withControl, tooLong(Math.max(kind.max, 1)), notAString);
    case "id":
      return fc.oneof(withControl, fc.constantFrom("-1", "1.5", "1e3", "abc", "9".repeat(19), " 1 "), notAString);
    case "bool":
      return fc.oneof(fc.constantFrom("true", "false", 0, 1, null, [], {}), withControl);
    case "choice":
      return fc.oneof(fc.integer({ min: -1000, max: 1000 }).filter((n) => !kind.values.includes(n)), fc.constantFrom(0.5, 1.5, "1", null, true, []));
    case "object":
      return fc.oneof(notAString.filter((value) => typeof value !== "object" || value === null || Array.isArray(value)), withControl, fc.constant({ evil: true }));
    case "list":
      return fc.oneof(
        notAString.filter((value) => !Array.isArray(value)),
        withControl,
        hostile(kind.item).map((item) => [item]),
        fc.constant(Array.from({ length: kind.max + 1 }, (_, i) => `item-${i}`)),
      );
  }
}

const extraKeys = fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }).filter((key) => key !== "__proto__"), fc.jsonValue({ maxDepth: 1 }), {
  maxKeys: 3,
});

/** A body with one hostile field (or, for a route without fields, an unexpected key), or no object at all. */
function hostileBody(route: Route): fc.Arbitrary<unknown> {
  const names = Object.keys(route.fields);
  const oneBadField =
    names.length === 0
      ? extraKeys.filter((keys) => Object.keys(keys).length > 0).map((keys) => ({ ...route.body(), ...keys }))
      : fc
          .tuple(fc.constantFrom(...names), extraKeys, fc.boolean())
          .chain(([name, extra, proto]) =>
            hostile(route.fields[name]!).map((value) => {
              const body: Record<string, unknown> = { ...extra, ...route.body(), [name]: value };
              // An own "__proto__" key, as JSON.parse makes one: it must neither pass nor pollute.
              if (proto) Object.defineProperty(body, "__proto__", { value: { polluted: true }, enumerable: true });
              return body;
            }),
          );
  return fc.oneof(oneBadField, oneBadField, fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 })));
}

// ── the state a refused call must leave as it was ───────────────────────────────────────────

async function state() {
  const db = await testDb();
  const { rows } = await sql<Record<string, string>>`
    select (select md5(string_agg(id || ':' || password_hash || permissions::text || login_enabled || bet_enabled, ',' order by id)) from admins) as admins,
           (select md5(string_agg(id || ':' || password_hash || permissions::text || login_enabled || bet_enabled, ',' order by id)) from users) as users,
           (select count(*) from admin_sessions where revoked_at is null) as admin_sessions,
           (select count(*) from user_sessions) as user_sessions,
           (select md5(string_agg(key || value::text, ',' order by key)) from settings) as settings,
           (select count(*) from coupons) as coupons,
           (select count(*) from slider_images) as slider_images,
           (select count(*) from sports_bets) as sports_bets,
           (select count(*) from casino_bets) as casino_bets,
           (select count(*) from bet_results) as bet_results`.execute(db);
  return { ...(await footprint()), ...rows[0] };
}

let app: FastifyInstance;
const tokens: Record<Caller, string | undefined> = { admin: undefined, player: undefined, none: undefined };

beforeAll(async () => {
  app = await testApp();
  const admin = await createAdmin({ role: 1 });
  tokens.admin = await login(app, admin.username, admin.password, freshIp());
  const partner = await createAdmin({ role: 3, balance: 100_000n });
  const player = await createBettor(app, partner.id, 100_000n);
  tokens.player = player.token;
  ids.user = String(player.id);
  const deposit = await call<{ _id: string }>(app, "POST", "/api/user/deposit-request", { token: player.token, body: { amount: 10, type: 0, utr: "U" } });
  const withdraw = await call<{ _id: string }>(app, "POST", "/api/user/withdraw-request", { token: player.token, body: { amount: 10, bank: BANK } });
  const offered = await createMarket(await testDb(), "odds", [
    { name: "Alpha", back: { price: 1.01, size: 1000 }, lay: { price: 1.02, size: 1000 } },
    { name: "Beta", back: { price: 1.01, size: 1000 }, lay: { price: 1.02, size: 1000 } },
  ]);
  ids.event = offered.eventId;
  ids.market = offered.marketId;
  ids.deposit = deposit.data!._id;
  ids.withdraw = withdraw.data!._id;
});
afterAll(() => app.close());

describe("every POST route refuses hostile bodies with a 4xx and changes nothing", () => {
  it.each(ROUTES.map((route) => [route.path, route] as const))("%s", async (_path, route) => {
    const before = await state();
    await fc.assert(
      fc.asyncProperty(hostileBody(route), async (body) => {
        // Sealed here, not by call(), which would send a null body as {}.
        const rawBody = { payload: seal(body, TEST_SECRET) };
        const reply = await call(app, "POST", route.path, { rawBody, token: tokens[route.as], ip: freshIp() });
        expect(reply.statusCode, `${reply.statusCode} ${reply.msg}`).toBeGreaterThanOrEqual(400);
        expect(reply.statusCode, `${reply.statusCode} ${reply.msg}`).toBeLessThan(500);
        expect(reply.status).toBe("FAIL");
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
      { seed: SEED, numRuns: RUNS_PER_ROUTE },
    );
    expect(await state()).toEqual(before);
    expect(await ledgerBreaches()).toEqual({ accounts: [], transfers: [] });
  });
});

// ── hostile dates in query parameters ───────────────────────────────────────────────────────

const two = (n: number) => String(n).padStart(2, "0");
/** A year the platform refuses: before DAY_YEARS.min or past DAY_YEARS.max (five digits). */
const badYear = fc.oneof(fc.integer({ min: 0, max: DAY_YEARS.min - 1 }), fc.integer({ min: DAY_YEARS.max + 1, max: 99_999 })).map((year) => String(year).padStart(4, "0"));
const anyYear = fc.integer({ min: 0, max: 99_999 }).map((year) => String(year).padStart(4, "0"));
/** A month and day of which at least one is not a date: month 0 or 13+, day 0 or past the month's end. */
const badMonthDay = fc.oneof(
  fc.tuple(fc.integer({ min: 0, max: 99 }).filter((month) => month === 0 || month > 12), fc.integer({ min: 1, max: 28 })),
  fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 32, max: 99 })),
  fc.constantFrom([2, 30], [2, 31], [4, 31], [6, 31], [9, 31], [11, 31], [0, 0]),
);
const goodMonthDay = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }));
/** Days as `YYYY-MM-DD` that are not in the range or not a date, and text that is no day at all. */
const badDay = fc.oneof(
  fc.tuple(badYear, goodMonthDay).map(([year, [month, day]]) => `${year}-${two(month)}-${two(day)}`),
  fc.tuple(anyYear, badMonthDay).map(([year, [month, day]]) => `${year}-${two(month!)}-${two(day!)}`),
  withControl,
  fc.constantFrom("today", "2025-1-1", "2025-01-01T00:00:00Z", "20250101", " 2025-01-01", "-2025-01-01", "+002025-01-01"),
);
const clock = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 })).map(([h, m, s]) => `${two(h)}:${two(m)}:${two(s)}`);
const goodOffset = fc.oneof(
  fc.constant("Z"),
  fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([sign, h, m]) => `${sign}${two(h)}:${two(m)}`),
);
const badOffset = fc
  .tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }))
  .filter(([, h, m]) => h > 23 || m > 59)
  .map(([sign, h, m]) => `${sign}${two(h)}:${two(m)}`);
/**
 * Date-times the platform refuses: in a year outside the range (at any offset, so also the
 * instants an offset pushes past its ends), on a day that does not exist, with an offset no
 * zone has, and text that is no date-time.
 */
const badDateTime = fc.oneof(
  fc.tuple(badYear, goodMonthDay, clock, goodOffset).map(([year, [month, day], time, offset]) => `${year}-${two(month)}-${two(day)}T${time}${offset}`),
  fc.tuple(anyYear, badMonthDay, clock, goodOffset).map(([year, [month, day], time, offset]) => `${year}-${two(month!)}-${two(day!)}T${time}${offset}`),
  fc.tuple(fc.integer({ min: DAY_YEARS.min, max: DAY_YEARS.max }), goodMonthDay, clock, badOffset).map(([year, [month, day], time, offset]) => `${year}-${two(month)}-${two(day)}T${time}${offset}`),
  // The instant past the last moment of DAY_YEARS.max, or before the first of DAY_YEARS.min.
  fc.tuple(fc.integer({ min: 1, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${DAY_YEARS.max}-12-31T23:59:59-${two(h)}:${two(m)}`),
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 1, max: 59 })).map(([h, m]) => `${DAY_YEARS.min}-01-01T00:00:00+${two(h)}:${two(m)}`),
  withControl,
  fc.constantFrom(
    "0000-01-01T00:00:00Z",
    "0000-01-01T00:00:00+00:00",
    "2026-01-01T00:00:00-99:99",
    `${DAY_YEARS.max}-12-31T23:59:59-23:59`,
    "yesterday",
    "2026-01-01",
    "2026-01-01T24:00:00Z",
    "2026-01-01T00:00:00",
    "+002026-01-01T00:00:00Z",
  ),
);

type DateParameter = { path: string; field: string; values: fc.Arbitrary<string>; rest: () => string };
const DATE_PARAMETERS: DateParameter[] = [
  { path: "/api/sports/market-results", field: "since", values: badDateTime, rest: () => "" },
  ...["/api/admin/report", "/api/admin/b2c/report"].flatMap((path) =>
    ["from", "to"].map((field): DateParameter => ({ path, field, values: badDay, rest: () => (field === "to" ? "from=2025-01-01" : "") })),
  ),
  ...["/api/admin/user-bets", "/api/admin/download-bets"].flatMap((path) =>
    ["from", "to"].map((field): DateParameter => ({ path, field, values: badDay, rest: () => `user=${ids.user}&type=0${field === "to" ? "&from=2025-01-01" : ""}` })),
  ),
];

describe("every date query parameter refuses a hostile date with a 400 naming it and changes nothing", () => {
  it.each(DATE_PARAMETERS.map((parameter) => [`${parameter.path} ${parameter.field}`, parameter] as const))("%s", async (_name, parameter) => {
    const before = await state();
    await fc.assert(
      fc.asyncProperty(parameter.values, async (value) => {
        const query = [parameter.rest(), `${parameter.field}=${encodeURIComponent(value)}`].filter(Boolean).join("&");
        const reply = await call(app, "GET", `${parameter.path}?${query}`, { token: tokens.admin });
        expect([reply.statusCode, reply.msg.startsWith(`${parameter.field}: `)], `${value}: ${reply.statusCode} ${reply.msg}`).toEqual([400, true]);
      }),
      { seed: SEED, numRuns: RUNS_PER_DATE_PARAMETER },
    );
    expect(await state()).toEqual(before);
  });

  it("answers the first and the last moment of the range, at any offset that keeps it inside", async () => {
    for (const since of [`${DAY_YEARS.min}-01-01T00:00:00Z`, `${DAY_YEARS.min}-01-01T00:00:00-05:30`, `${DAY_YEARS.max}-12-31T23:59:59.999Z`, `${DAY_YEARS.max}-12-31T23:59:59+23:59`]) {
      const reply = await call(app, "GET", `/api/sports/market-results?since=${encodeURIComponent(since)}`, { token: tokens.admin });
      expect([since, reply.statusCode]).toEqual([since, 200]);
    }
  });
});

// ── hostile account lookups (the `usernames` and `ids` extension, docs/protocol.md) ─────────────

/** An item any lookup takes: 1 to 64 characters, no comma, no control character; SQL's and LIKE's signs included. */
const lookupItem = fc.oneof(
  fc.string({ minLength: 1, maxLength: 64 }).filter((item) => !item.includes(",") && !CONTROL_CHARACTER.test(item) && item.trim().length > 0),
  fc.constantFrom("'; drop table users; --", "%", "_", "user%", "\\", "1 or 1=1", "00000000001", "-1", "1e3", "９"),
);
/** Lists a lookup refuses: an item with a control character, an empty or too long item, more than NAMED_ACCOUNTS_MAX items. */
const badLookup = fc.oneof(
  fc.tuple(fc.array(lookupItem, { maxLength: 3 }), withControl).map(([items, bad]) => [...items, bad].join(",")),
  // (an empty parameter is no parameter, as everywhere: a list with an empty item among others)
  fc.tuple(fc.array(lookupItem, { minLength: 1, maxLength: 3 }), fc.nat()).map(([items, at]) => [...items.slice(0, at % (items.length + 1)), "", ...items.slice(at % (items.length + 1))].join(",")),
  fc.tuple(fc.array(lookupItem, { maxLength: 3 }), tooLong(64)).map(([items, long]) => [long, ...items].join(",")),
  fc.integer({ min: NAMED_ACCOUNTS_MAX + 1, max: NAMED_ACCOUNTS_MAX + 50 }).map((count) => Array.from({ length: count }, (_, n) => `u${n}`).join(",")),
);

describe("an account lookup refuses a hostile list with a 400 naming it, answers any other with only the accounts it names, and changes nothing", () => {
  let partner: string;
  beforeAll(async () => {
    const owner = await createAdmin({ role: 3, balance: 1_000n });
    partner = await login(app, owner.username, owner.password, freshIp());
    await createBettor(app, owner.id, 10n);
  });

  const LOOKUPS = ["/api/admin/users", "/api/admin/partners"].flatMap((path) => ["usernames", "ids"].map((field) => [`${path} ${field}`, path, field] as const));

  it.each(LOOKUPS)("%s", async (_name, path, field) => {
    const before = await state();
    await fc.assert(
      fc.asyncProperty(badLookup, async (value) => {
        const reply = await call(app, "GET", `${path}?${field}=${encodeURIComponent(value)}`, { token: partner });
        // The parameter named, or one of its items (`usernames.2: …`).
        expect([reply.statusCode, new RegExp(`^${field}[.:]`).test(reply.msg)], `${value.slice(0, 80)}: ${reply.statusCode} ${reply.msg}`).toEqual([400, true]);
      }),
      { seed: SEED, numRuns: RUNS_PER_ROUTE },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(lookupItem, { minLength: 1, maxLength: 8 }), async (items) => {
        const reply = await call<{ items: Array<{ _id: string; username: string }> }>(app, "GET", `${path}?${field}=${encodeURIComponent(items.join(","))}`, { token: partner });
        expect(reply.statusCode, reply.msg).toBe(200);
        const named = new Set(items.map((item) => item.trim().toLowerCase()));
        for (const account of reply.data!.items) expect(named.has((field === "ids" ? String(account._id) : account.username).toLowerCase()), account.username).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS_PER_ROUTE },
    );
    expect(await state()).toEqual(before);
  });
});
