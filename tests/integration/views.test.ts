/**
 * Saved views (issue 32) through HTTP, on a store two console instances share (PGlite, and
 * PostgreSQL where one is given): a view saved on one instance lists on the other, for that
 * operator alone; one default a screen; bad views and a full screen are refused; another
 * operator's view can be neither read nor deleted, nor a view of a screen they may not open; a
 * signed-out cookie reads and writes nothing.
 */
import { describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { VIEW_NAME_MAX, VIEWS_PER_SCREEN, type SavedView } from "../../app/lib/list-view";
import type { ConsoleStore } from "../../app/lib/store/schema";
import { consoleStores } from "./support/console-stores";
import { signInTo, twoConsolesOn, type TestConsole } from "./support/console.js";

const { open, targets } = consoleStores("views");

describe.each(targets)("saved views on %s", (_name, target) => {
  let store: ConsoleStore;
  let one: TestConsole;
  let two: TestConsole;
  twoConsolesOn(async () => open(await target()), (started) => ({ store, one, two } = started));

  const change = (app: TestConsole, cookie: string, body: unknown) =>
    app.fetch("/resources/views", {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const save = (app: TestConsole, cookie: string, screen: string, view: SavedView) => change(app, cookie, { intent: "save", screen, view });
  const viewsOn = async (app: TestConsole, cookie: string, screen: string) => {
    const response = await app.fetch(`/resources/views?screen=${screen}`, { headers: { Cookie: cookie, Accept: "application/json" } });
    expect(response.status).toBe(200);
    return ((await response.json()) as { views: SavedView[] }).views;
  };

  it("lists a view saved on one instance on the other, for that operator alone, and deletes it", async () => {
    const onOne = await signInTo(one, DEMO_ACCOUNTS.admin);
    const onTwo = await signInTo(two, DEMO_ACCOUNTS.admin);
    const staff = await signInTo(two, DEMO_ACCOUNTS.staff);
    const view = { name: "Big balances", query: "orderBy=balance&cols=username%2Cbalance", isDefault: true };
    expect((await save(one, onOne, "withdraws", view)).status).toBe(200);
    expect((await save(two, onTwo, "withdraws", { name: "Plain", query: "", isDefault: false })).status).toBe(200);

    expect(await viewsOn(two, onTwo, "withdraws")).toEqual([view, { name: "Plain", query: "", isDefault: false }]);
    expect(await viewsOn(one, onOne, "users")).toEqual([]);
    expect(await viewsOn(two, staff, "withdraws")).toEqual([]);

    // A new default takes the mark from the other.
    expect((await save(two, onTwo, "withdraws", { name: "Plain", query: "", isDefault: true })).status).toBe(200);
    expect((await viewsOn(one, onOne, "withdraws")).map((v) => [v.name, v.isDefault])).toEqual([
      ["Big balances", false],
      ["Plain", true],
    ]);

    // Another operator's view: neither theirs to delete nor changed by their own of that name.
    expect((await change(two, staff, { intent: "delete", screen: "withdraws", name: "Plain" })).status).toBe(404);
    expect((await save(two, staff, "withdraws", { name: "Plain", query: "search=mine", isDefault: true })).status).toBe(200);
    expect((await viewsOn(one, onOne, "withdraws")).find((v) => v.name === "Plain")).toEqual({ name: "Plain", query: "", isDefault: true });

    expect((await change(one, onOne, { intent: "delete", screen: "withdraws", name: "Plain" })).status).toBe(200);
    expect((await change(two, onTwo, { intent: "delete", screen: "withdraws", name: "Plain" })).status).toBe(404);
    expect((await viewsOn(two, onTwo, "withdraws")).map((v) => v.name)).toEqual(["Big balances"]);
    expect((await viewsOn(two, staff, "withdraws")).map((v) => v.query)).toEqual(["search=mine"]);
  });

  it("refuses the views of a screen the operator may not open, and keeps nothing", async () => {
    // The demo staff account has no Users desk (platform/seed.ts).
    const staff = await signInTo(one, DEMO_ACCOUNTS.staff);
    const before = await store.selectFrom("console_views").selectAll().execute();
    const read = await one.fetch("/resources/views?screen=users", { headers: { Cookie: staff, Accept: "application/json" } });
    const written = await save(one, staff, "users", { name: "Mine", query: "", isDefault: true });
    const deleted = await change(one, staff, { intent: "delete", screen: "users", name: "Mine" });
    for (const response of [read, written, deleted]) expect(response.status).toBe(403);
    expect(await store.selectFrom("console_views").selectAll().execute()).toEqual(before);
  });

  it("refuses what is not a view, and keeps nothing of it", async () => {
    const cookie = await signInTo(one, DEMO_ACCOUNTS.admin);
    const before = await store.selectFrom("console_views").selectAll().execute();
    const view = { name: "x", query: "", isDefault: false };
    for (const bad of [
      { intent: "save", screen: "users", view: { ...view, name: "n".repeat(VIEW_NAME_MAX + 1) } },
      { intent: "save", screen: "users", view: { ...view, name: " " } },
      { intent: "save", screen: "users", view: { ...view, query: "q".repeat(3000) } },
      { intent: "save", screen: "bank-details", view },
      { intent: "save", screen: "nowhere", view },
      { intent: "save", screen: "users" },
      { intent: "rename", screen: "users", view },
      null,
    ]) {
      const response = await change(one, cookie, bad);
      expect({ bad, status: response.status }).toEqual({ bad, status: 400 });
    }
    const listed = await one.fetch("/resources/views?screen=home", { headers: { Cookie: cookie, Accept: "application/json" } });
    expect(listed.status).toBe(400);
    expect(await store.selectFrom("console_views").selectAll().execute()).toEqual(before);
  });

  it("keeps at most VIEWS_PER_SCREEN views a screen and operator", async () => {
    const cookie = await signInTo(one, DEMO_ACCOUNTS.staff);
    for (let i = 0; i < VIEWS_PER_SCREEN; i++) await save(one, cookie, "deposits", { name: `view ${i}`, query: "", isDefault: false });
    expect(
      (await save(two, await signInTo(two, DEMO_ACCOUNTS.staff), "deposits", { name: "one more", query: "", isDefault: false })).status,
    ).toBe(409);
    // Replacing one of them still works.
    expect((await save(one, cookie, "deposits", { name: "view 0", query: "search=a", isDefault: true })).status).toBe(200);
    expect((await viewsOn(one, cookie, "deposits")).length).toBe(VIEWS_PER_SCREEN);
  });

  it("reads and writes nothing for a signed-out cookie", async () => {
    const cookie = await signInTo(one, DEMO_ACCOUNTS.admin);
    const out = await one.fetch("/session", {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "signOut" }),
    });
    expect(out.status).toBe(200);
    const rows = await store.selectFrom("console_views").selectAll().execute();
    const read = await one.fetch("/resources/views?screen=users", { headers: { Cookie: cookie, Accept: "application/json" } });
    const written = await save(one, cookie, "users", { name: "Sneaky", query: "", isDefault: true });
    const deleted = await change(one, cookie, { intent: "delete", screen: "users", name: "Big balances" });
    for (const response of [read, written, deleted])
      expect([response.status, response.headers.get("Location")]).toEqual([302, expect.stringMatching(/^\/login/)]);
    expect(await store.selectFrom("console_views").selectAll().execute()).toEqual(rows);
  });
});
