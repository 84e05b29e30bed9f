/**
 * The console and the platform logging at `debug` through a whole scenario (issue 31): sign-in, a
 * deposit, a settlement, password changes. Every line of both is scanned for each secret the
 * scenario used; and one trace id joins the console's line of a request, its upstream calls'
 * lines on both sides and its audit entry, as the short reference of a failed call's toast does.
 */
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConsoleLogger, installRootLogger, traceReference } from "../../app/lib/observability/context.server";
import { listAudit } from "../../app/lib/store/audit-log.server";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { startConsole, type TestConsole } from "./support/console.js";
import { createAdmin, createUser, houseId, placePendingBets, TEST_SECRET } from "./support/platform.js";

type Line = Record<string, unknown> & { msg?: string; traceId?: string; program?: string };
const lines: Line[] = [];
const raw: string[] = [];
const sink = () => new Writable({ write: (chunk: Buffer, _encoding, done) => (raw.push(chunk.toString()), lines.push(JSON.parse(chunk.toString()) as Line), done()) });

/** The upstream bearer tokens the console sent, as the platform saw them. */
const upstreamTokens = new Set<string>();
let failNextDeposit = false;

let app: TestConsole;
beforeAll(async () => {
  installRootLogger(createConsoleLogger({ level: "debug", destination: sink() }));
  app = await startConsole(
    {},
    (platform) =>
      platform.addHook("onRequest", async (request, reply) => {
        const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
        if (bearer) upstreamTokens.add(bearer);
        if (failNextDeposit && request.url.endsWith("/user-deposit")) {
          failNextDeposit = false;
          await reply.code(500).send({ status: "FAIL", msg: "Something went wrong" });
        }
      }),
    { platformLog: { level: "debug", stream: sink() } },
  );
});
afterAll(() => app?.close());

const post = (path: string, cookie: string, form: Record<string, string>) =>
  app.fetch(path, { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams(form) });

async function signIn(account: { username: string; password: string }): Promise<string> {
  const response = await app.fetch("/login", { method: "POST", body: new URLSearchParams({ ...account, redirectTo: "/" }) });
  expect(response.status).toBe(302);
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

describe("logs through a whole scenario, at debug", () => {
  it("hold no secret the scenario used, on either side", async () => {
    const staff = await createAdmin({ role: 2, permissions: {} });
    const admin = await signIn(DEMO_ACCOUNTS.admin);
    const staffCookie = await signIn(staff);
    const user = await createUser(await houseId());
    const remark = `remark-${randomUUID()}`;
    const requestId = randomUUID();
    expect((await post("/users", admin, { intent: "deposit", user: String(user.id), isPartner: "false", amount: "150.50", remark, requestId })).status).toBe(200);
    const { eventId, marketId, ids } = await placePendingBets(app.platform, 2);
    const settled = await app.fetch("/resources/bets/settle", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: admin },
      body: JSON.stringify({ scope: { eventId, marketId }, settlements: ids.map((_id) => ({ bet: { _id, eventId, marketId }, status: 1 })) }),
    });
    expect(settled.status).toBe(200);
    const userPassword = `User-${randomUUID().slice(0, 8)}`;
    await post("/users", admin, { intent: "password", user: String(user.id), isPartner: "false", password: userPassword, confirmPassword: userPassword });
    const ownPassword = `Own-${randomUUID().slice(0, 8)}`;
    const changed = await post("/change-password", staffCookie, { curPassword: staff.password, password: ownPassword, confirmPassword: ownPassword });
    expect(changed.status).toBe(200);

    expect(lines.some((line) => line.program === "console" && line.msg === "upstream call")).toBe(true);
    expect(lines.some((line) => line.program === "platform" && line.msg === "request")).toBe(true);
    expect(upstreamTokens.size).toBeGreaterThan(0);
    const secrets = {
      apiSecret: TEST_SECRET,
      adminPassword: DEMO_ACCOUNTS.admin.password,
      staffPassword: staff.password,
      userPassword,
      ownPassword,
      adminCookie: admin.split("=")[1]!,
      staffCookie: staffCookie.split("=")[1]!,
      depositRemark: remark,
      depositRequestId: requestId,
      ...Object.fromEntries([...upstreamTokens].map((token, index) => [`upstreamToken${index}`, token])),
    };
    const text = raw.join("");
    for (const [name, secret] of Object.entries(secrets)) expect(text.includes(secret), name).toBe(false);
  });

  it("join a request's lines on both sides, and its audit entry, by one trace id; a failed call's message names it", async () => {
    const admin = await signIn(DEMO_ACCOUNTS.admin);
    const user = await createUser(await houseId());
    failNextDeposit = true;
    const response = await post("/users", admin, { intent: "deposit", user: String(user.id), isPartner: "false", amount: "10", remark: "traced", requestId: randomUUID() });
    const failed = lines.find((line) => line.program === "console" && line.call === "userDeposit" && line.outcome === "unknown");
    const reference = traceReference(failed!.traceId!);
    // The page answering the action carries the toast's message, reference included.
    expect(await response.text()).toContain(`(ref ${reference})`);
    const traced = lines.filter((line) => line.traceId?.startsWith(reference!));
    expect(traced).toContainEqual(expect.objectContaining({ program: "console", msg: "request", route: "/users/:panel?", operator: DEMO_ACCOUNTS.admin.username }));
    expect(traced).toContainEqual(expect.objectContaining({ program: "console", msg: "upstream call", call: "userDeposit", outcome: "unknown", status: 500 }));
    expect(traced).toContainEqual(expect.objectContaining({ program: "platform", msg: "request", status: 500, route: "/api/admin/user-deposit" }));
    const [entry] = (await listAudit(app.store, { call: "userDeposit" }, { limit: 100, offset: 0 })).filter((candidate) => candidate.accountId === String(user.id));
    expect(entry?.traceId?.startsWith(reference!)).toBe(true);
  });
});
