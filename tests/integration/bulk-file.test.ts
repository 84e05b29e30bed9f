/**
 * Bulk from file over the console's HTTP (issue 34; the console's store in memory, the platform on
 * PGlite or, with TEST_DATABASE_URL, PostgreSQL): a 500-line deposit file with 3 bad lines is
 * previewed naming each and stored as one job of 497 items; a line changed after the preview is
 * refused with nothing stored; four-eyes holds the job whole above a total; a partner's deposits
 * above their balance refuse the whole file; the result CSV lists every line with its outcome.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "csv-parse/sync";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { fileItemForm, type FilePreview } from "../../app/lib/bulk-file";
import { MESSAGES } from "../../app/lib/constants";
import { FOUR_EYES_OFF, saveThresholds } from "../../app/lib/store/four-eyes.server";
import { jobItems } from "../../app/lib/store/jobs.server";
import { startConsole, type TestConsole } from "./support/console.js";
import { createAdmin, createUsers, houseId, type TestUser } from "./support/platform.js";

let app: TestConsole;
let admin: string;
let users: TestUser[];

const signIn = async (credentials: { username: string; password: string }) =>
  (await app.fetch("/login", { method: "POST", body: new URLSearchParams({ ...credentials, redirectTo: "/" }) })).headers.get("Set-Cookie")!.split(";")[0]!;

beforeAll(async () => {
  app = await startConsole();
  admin = await signIn(DEMO_ACCOUNTS.admin);
  const house = await houseId();
  users = await createUsers(house, 497);
  // Starting the console compiles the whole app through Vite: on a busy machine that takes more than the default minute.
}, 240_000);
afterAll(() => app?.close());

const post = (cookie: string, path: string, body: unknown) =>
  app.fetch(path, { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(body) });

async function preview(cookie: string, content: string, command = "deposit"): Promise<FilePreview & { refusal: string | null }> {
  const response = await post(cookie, "/resources/bulk-file/preview", { command, desk: "users", content, encoding: "text" });
  const answer = (await response.json()) as { preview: FilePreview & { refusal: string | null } };
  expect(response.status).toBe(200);
  return answer.preview;
}

/** The job the bulk run stores from a preview: its good lines' items, and the preview's lines and seal. */
function jobOf(shown: FilePreview) {
  const items = shown.lines
    .filter((line) => !line.problem)
    .map((line) => {
      const requestId = randomUUID();
      return { key: line.account!.id, label: line.account!.username, requestId, payload: fileItemForm(shown.command, shown.desk, line, requestId) };
    });
  return { kind: "deposit", title: "Deposit from file", items, file: { command: shown.command, desk: shown.desk, lines: shown.lines, seal: shown.seal } };
}

const jobCount = async () => Number((await app.store.selectFrom("console_jobs").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);

/** 497 good lines, then an unknown user, a bad amount and a repeat; usernames in any case. */
const fileOf = (amount = "10") =>
  [
    "Username;Amount;Remark",
    ...users.map((user, index) => `${index % 2 ? user.username.toUpperCase() : user.username};${amount};"weekly; cashback"`),
    "=HYPERLINK(\"x\");5;",
    `${users[0]!.username};1.234;`,
    `${users[1]!.username};3;`,
  ].join("\r\n");

describe("a deposit file over the console's HTTP", () => {
  let shown: FilePreview & { refusal: string | null };
  let id: string;

  it("previews 500 lines naming the 3 bad ones, and stores the 497 good as one job", async () => {
    const before = app.upstream.length;
    shown = await preview(admin, fileOf());
    // 498 names, 200 a lookup (extension), and the one not among the users looked up among the panels.
    const reads = app.upstream.slice(before).filter((line) => line.startsWith("GET "));
    expect(reads.filter((line) => line.endsWith("/users"))).toHaveLength(3);
    expect(reads.filter((line) => line.endsWith("/partners"))).toHaveLength(1);
    expect(shown.lines).toHaveLength(500);
    expect(shown.lines.filter((line) => line.problem).map((line) => [line.line, line.problem])).toEqual([
      [499, "unknown user"],
      [500, "Amount must be a number with at most 2 decimals"],
      [501, "repeats the account of line 3"],
    ]);
    expect(shown.lines[0]).toMatchObject({ account: { id: String(users[0]!.id), username: users[0]!.username, balance: 0 }, amount: 10, remark: "weekly; cashback" });
    expect(shown.total).toBe(4970);
    const answer = (await (await post(admin, "/resources/jobs", jobOf(shown))).json()) as { id: string };
    id = answer.id;
    expect(await jobItems(app.store, id)).toHaveLength(497);
    // 500 lines are 500 upstream reads and a job of 497 items checked again.
  }, 120_000);

  it("refuses a job whose line was changed after the preview, storing nothing", async () => {
    const before = await jobCount();
    const forged = jobOf(shown);
    forged.items[5]!.payload.form.amount = "9999";
    const changed = await post(admin, "/resources/jobs", forged);
    expect(changed.status).toBe(400);
    expect(((await changed.json()) as { message: string }).message).toBe("Line 7 changed after the preview: preview the file again");
    const relined = jobOf({ ...shown, lines: shown.lines.map((line, index) => (index === 5 ? { ...line, amount: 9999 } : line)) });
    const resealed = await post(admin, "/resources/jobs", relined);
    expect(resealed.status).toBe(400);
    expect(((await resealed.json()) as { message: string }).message).toBe("The file's lines differ from its preview: preview the file again");
    expect(await jobCount()).toBe(before);
  });

  it("lists every line of the file in the result CSV, with each outcome and the balances the trail holds", async () => {
    const [first, second] = (await jobItems(app.store, id)).map((item) => item.payload as { path: string; form: Record<string, string> });
    for (const { form } of [first!, second!]) {
      const answer = await (await app.fetch("/users.data", { method: "POST", headers: { Cookie: admin }, body: new URLSearchParams({ ...form, jobId: id }) })).text();
      expect(answer).toContain(MESSAGES.depositAdded);
    }
    const response = await app.fetch(`/resources/jobs/${id}/result`, { headers: { Cookie: admin } });
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    const [header, ...rows] = parse(await response.text()) as string[][];
    expect(header).toEqual(["line", "named", "account id", "username", "amount", "remark", "outcome", "message", "balance before", "balance after"]);
    expect(rows).toHaveLength(500);
    expect(rows[0]).toEqual(["2", users[0]!.username, String(users[0]!.id), users[0]!.username, "10", "weekly; cashback", "done", "", "0", "10"]);
    expect(rows[2]!.slice(6)).toEqual(["not sent yet", "", "", ""]);
    // A formula-like cell comes back inert.
    expect(rows[497]!.slice(0, 2)).toEqual(["499", `'=HYPERLINK("x")`]);
    expect(rows[497]!.slice(6, 8)).toEqual(["not sent", "unknown user"]);
  });

  it("is held whole by four-eyes above a job total, counted from the stored items", async () => {
    await saveThresholds(app.store, { ...FOUR_EYES_OFF, jobTotalAbove: 1000 });
    try {
      const before = await jobCount();
      const answer = (await (await post(admin, "/resources/jobs", jobOf(await preview(admin, fileOf("3"))))).json()) as { held?: string };
      expect(answer.held).toMatch(/four-eyes/);
      expect(answer.held).toMatch(/above 1000/);
      expect(await jobCount()).toBe(before);
    } finally {
      await saveThresholds(app.store, FOUR_EYES_OFF);
    }
  }, 120_000);
});

describe("a partner's deposit file", () => {
  it("is refused whole when its deposits add up to more than the partner's balance, naming both", async () => {
    const partner = await createAdmin({ role: 3, balance: 2000n });
    const mine = await createUsers(partner.id, 3);
    const cookie = await signIn(partner);
    const shown = await preview(cookie, ["username,amount", ...mine.map((user) => `${user.username},10`), `${users[0]!.username},1`].join("\n"));
    expect(shown.lines.map((line) => line.problem)).toEqual([undefined, undefined, undefined, "not in your tree (or unknown user)"]);
    expect(shown.refusal).toBe("The deposits total 30.00, above your balance of 20.00: the whole file is refused");
    const refused = await post(cookie, "/resources/jobs", jobOf(shown));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(shown.refusal);
  });
});
