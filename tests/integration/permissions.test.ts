/**
 * The permission matrix: every admin call × a staff account per single staff flag (and one
 * with none), the super admin and a partner. A caller the call is not for gets 403
 * `Permission denied` before its body is read; anyone else gets the call's own answer for
 * the body sent (200, or a 400/404 for a deliberately empty body), never 403. Adding a route
 * is one row in CALLS (a sports API call by its whole path).
 */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seal } from "../../protocol/envelope.js";
import { STAFF_FLAGS, type StaffFlag, type WireResponse } from "../../protocol/wire.js";
import { ADMIN_API_PREFIX } from "../../platform/app.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { createAdmin, createUser, freshIp, login, TEST_SECRET, testApp } from "./support/platform.js";

/** Who a call is for: every signed-in account, the super admin alone, or a staff flag (the super admin always). */
type Access = "anyone" | "superAdmin" | { flags: StaffFlag[]; partners: boolean };
type Ids = { user: string; subPartner: string };
type Call = { method: "GET" | "POST"; path: (ids: Ids) => string; access: Access; body?: unknown };

/** For the staff holding `flag` (or any of the flags given), and partners when `partners` is set. */
const staffFlag = (flag: StaffFlag | StaffFlag[], { partners = false } = {}): Access => ({ flags: [flag].flat(), partners });
const users = staffFlag("users", { partners: true });
const deposits = staffFlag("deposits", { partners: true });
const withdraws = staffFlag("withdraws", { partners: true });
const settings = staffFlag("settings");
const bets = staffFlag("bets");
const betHistory = staffFlag("bets", { partners: true });
const get = (path: string | ((ids: Ids) => string), access: Access): Call => ({ method: "GET", path: typeof path === "string" ? () => path : path, access });
// An empty body: refused by validation (400) once the caller is let in.
const post = (path: string, access: Access): Call => ({ method: "POST", path: () => path, access, body: {} });

const CALLS: Call[] = [
  get("/b2c/admin", "anyone"),
  get("/permissions", "anyone"),
  get("/partner-roles", "anyone"),
  post("/change-password", "anyone"),

  get("/users", users),
  get("/partners", users),
  get("/download-users", users),
  post("/add-user", users),
  post("/user-deposit", users),
  post("/user-withdraw", users),
  post("/change-user-password", users),
  get((ids) => `/user-permissions/${ids.user}`, users),
  get((ids) => `/partner-permissions/${ids.subPartner}`, users),
  post("/change-permissions", users),
  get((ids) => `/login-logs/${ids.user}`, users),
  get("/b2c/default-admin", staffFlag("users")),
  get("/b2c/make-default-admin/999999999", "superAdmin"),

  get("/b2c/deposits/0", deposits),
  post("/b2c/update-deposit", deposits),
  get((ids) => `/transaction?type=deposits&user=${ids.user}`, deposits),
  get("/uploads/0123456789abcdef0123456789abcdef.png", deposits),
  get("/b2c/bonus-limits", staffFlag(["deposits", "settings"], { partners: true })),
  post("/b2c/update-bonus-limits", settings),
  get("/b2c/withdraws/0", withdraws),
  post("/b2c/update-withdraw", withdraws),
  get((ids) => `/transaction?type=withdraws&user=${ids.user}`, withdraws),

  get("/b2c/bank-details", settings),
  post("/b2c/update-bank-deatils", settings),
  post("/b2c/update-bank-details", settings),
  get("/b2c/whatsapp", settings),
  post("/b2c/update-whatsapp", settings),
  get("/b2c/telegram", settings),
  post("/b2c/update-telegram", settings),
  get("/b2c/bonus", settings),
  post("/b2c/update-bonus", settings),
  get("/b2c/main-bonus", settings),
  post("/b2c/update-main-bonus", settings),
  get("/b2c/ref-bonus", settings),
  post("/b2c/update-ref-bonus", settings),
  get("/b2c/coupons", settings),
  post("/b2c/add-coupon", settings),
  get("/b2c/slider", settings),
  post("/b2c/add-slider", settings),
  get("/b2c/remove-slider/999999999", settings),
  get("/slider-images/0123456789abcdef0123456789abcdef.png", settings),

  get("/sports-pending-bets", bets),
  post("/settel-bet", bets),
  post("/resettle-bet", "superAdmin"),
  get((ids) => `/user-bets?user=${ids.user}`, betHistory),
  get((ids) => `/download-bets?user=${ids.user}`, betHistory),
  get((ids) => `/b2c/user-profit/${ids.user}`, betHistory),

  get("/b2c/report", staffFlag("report", { partners: true })),
  get("/report", staffFlag("report", { partners: true })),
  get("/api/sports/matches/cricket", "anyone"),
  get("/api/sports/market-bets?eventId=no-such-event", betHistory),
  post("/api/sports/market-green", betHistory),
  get("/api/sports/scorecard/no-such-event", betHistory),
  get("/api/sports/market-results", bets),

  get("/b2c/admins", "superAdmin"),
  post("/b2c/add-admin", "superAdmin"),
  get("/b2c/remove-admin/999999999", "superAdmin"),
];

type Caller = { name: string; role: "superAdmin" | "staff" | "partner"; flags: StaffFlag[] };

const CALLERS: Caller[] = [
  { name: "super admin", role: "superAdmin", flags: [] },
  { name: "staff without flags", role: "staff", flags: [] },
  ...STAFF_FLAGS.map((flag): Caller => ({ name: `staff with ${flag}`, role: "staff", flags: [flag] })),
  { name: "partner", role: "partner", flags: [] },
];

function mayCall(caller: Caller, access: Access): boolean {
  if (access === "anyone" || caller.role === "superAdmin") return true;
  if (access === "superAdmin") return false;
  return caller.role === "partner" ? access.partners : access.flags.some((flag) => caller.flags.includes(flag));
}

let app: FastifyInstance;
const tokens = new Map<string, string>();
let ids: Ids;

beforeAll(async () => {
  app = await testApp();
  const partner = await createAdmin({ role: 3 });
  const subPartner = await createAdmin({ role: 3, parent: partner.id, partnerRoleLevel: 2 });
  const user = await createUser(partner.id);
  ids = { user: String(user.id), subPartner: String(subPartner.id) };
  tokens.set("super admin", await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp()));
  tokens.set("partner", await login(app, partner.username, partner.password, freshIp()));
  for (const caller of CALLERS.filter((each) => each.role === "staff")) {
    const staff = await createAdmin({ role: 2, permissions: Object.fromEntries(caller.flags.map((flag) => [flag, true])) });
    tokens.set(caller.name, await login(app, staff.username, staff.password, freshIp()));
  }
});
afterAll(() => app.close());

/** The status and, for an envelope answer, its msg: some calls answer a file (CSV, an image) when let in. */
async function answer(method: "GET" | "POST", path: string, token: string, body: unknown) {
  const response = await app.inject({
    method,
    // The sports API's calls are named by their whole path.
    url: path.startsWith("/api/") ? path : `${ADMIN_API_PREFIX}${path}`,
    headers: { authorization: `Bearer ${token}` },
    ...(method === "POST" ? { payload: { payload: seal(body, TEST_SECRET) } } : {}),
  });
  const envelope = String(response.headers["content-type"] ?? "").startsWith("application/json");
  return { statusCode: response.statusCode, msg: envelope ? response.json<WireResponse>().msg : "(file)" };
}

describe.each(CALLERS)("$name", (caller) => {
  it.each(CALLS.map((each) => ({ ...each, label: `${each.method} ${each.path({ user: ":user", subPartner: ":partner" })}` })))(
    "$label",
    async ({ method, path, body, access }) => {
      const reply = await answer(method, path(ids), tokens.get(caller.name)!, body);
      if (mayCall(caller, access)) {
        expect(reply.statusCode, reply.msg).not.toBe(403);
        expect(reply.statusCode, reply.msg).not.toBe(401);
      } else {
        expect(reply).toEqual({ statusCode: 403, msg: "Permission denied" });
      }
    },
  );
});
