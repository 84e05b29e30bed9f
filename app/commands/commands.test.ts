import { describe, expect, it } from "vitest";
import { CHORDS, createSequenceMatcher, describeKeys, keyToken, SEQUENCE_TIMEOUT_MS } from "./keymap";
import { rememberAccounts, cachedAccounts, ACCOUNT_CACHE_LIMIT } from "./account-cache";
import { createIncrementalRanker, narrowChoices, prepare, rankPrepared, type Rankable } from "./rank";
import { eventOfDetailPath, marketDetailPath } from "./markets";
import type { Command, CommandContext, Operator } from "./types";

const rank = <T extends Rankable>(items: readonly T[], term: string, limit?: number) =>
  rankPrepared(prepare(items), term, limit).ranked;
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { CALLS } from "../../protocol/calls";
import { STAFF_FLAGS } from "../../protocol/wire";
import { mayUse, SCREENS, SIDEBAR_LINKS, type Screen } from "../lib/screens";
import { entryOf } from "../lib/palette-history";
import { COMMANDS, commandById, commandsFor, keyConflicts, PICK_SOURCES, SCREEN_COMMANDS, screenCommandsFor } from "./registry";

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe("keymap", () => {
  it("turns events into tokens", () => {
    expect(keyToken(key("g"))).toBe("g");
    expect(keyToken(key("R"))).toBe("R");
    expect(keyToken(key("k", { ctrlKey: true }))).toBe("mod+k");
    expect(keyToken(key("K", { metaKey: true }))).toBe("mod+k");
    expect(keyToken(key("L", { ctrlKey: true, shiftKey: true }))).toBe("mod+shift+l");
    expect(keyToken(key("?", { shiftKey: true }))).toBe("?");
    expect(keyToken(key("Escape"))).toBe("escape");
    expect(keyToken(key("Shift"))).toBeNull();
  });

  it("holds in the head script exactly the chords the registry binds", () => {
    const bound = [...COMMANDS, ...SCREEN_COMMANDS].flatMap((command) => command.keys ?? []).flatMap((sequence) => sequence.split(" ").filter((token) => token.startsWith("mod+")));
    expect([...new Set(bound)].sort()).toEqual([...CHORDS].sort());
  });

  it("describes sequences for people", () => {
    expect(describeKeys("mod+k")).toBe("Ctrl+K");
    expect(describeKeys("mod+k", true)).toBe("⌘K");
    expect(describeKeys("g h")).toBe("g h");
    expect(describeKeys("mod+shift+l")).toBe("Ctrl+Shift+L");
    expect(describeKeys("mod+shift+l", true)).toBe("⌘⇧L");
  });

  it("matches prefixed sequences within the timeout only", () => {
    const matcher = createSequenceMatcher([["g h", "home"], ["g c", "password"], ["?", "help"]] as const);
    expect(matcher.feed("g", 0)).toEqual({ kind: "pending", prefix: "g" });
    expect(matcher.feed("h", 100)).toEqual({ kind: "run", target: "home" });
    expect(matcher.feed("g", 1000)).toEqual({ kind: "pending", prefix: "g" });
    expect(matcher.feed("c", 1000 + SEQUENCE_TIMEOUT_MS + 1)).toEqual({ kind: "none" });
    expect(matcher.feed("?", 5000)).toEqual({ kind: "run", target: "help" });
  });

  it("restarts from a stray key so the next sequence still runs", () => {
    const matcher = createSequenceMatcher([["g h", "home"]] as const);
    matcher.feed("g", 0);
    expect(matcher.feed("g", 10)).toEqual({ kind: "pending", prefix: "g" });
    expect(matcher.feed("h", 20)).toEqual({ kind: "run", target: "home" });
    expect(matcher.feed("x", 30)).toEqual({ kind: "none" });
  });
});

describe("palette ranking", () => {
  const items = [
    { title: "Go to Home", keywords: ["dashboard"] },
    { title: "Go to Change Password" },
    { title: "Change password", keywords: ["own password"] },
    { title: "Logout", keywords: ["sign out"] },
  ];

  it("keeps the registry order for a blank term", () => {
    expect(rank(items, "  ")).toEqual(items);
  });

  it("ranks title prefixes, then word prefixes, then keywords and subsequences", () => {
    expect(rank(items, "chan").map((i) => i.title)).toEqual(["Change password", "Go to Change Password"]);
    expect(rank(items, "sign")[0]!.title).toBe("Logout");
    expect(rank(items, "gth")[0]!.title).toBe("Go to Home");
    expect(rank(items, "zzz")).toEqual([]);
  });

  it("orders within a class by the boost, never across classes", () => {
    const items = [
      { title: "Go to Deposits", keywords: ["deposits"], boost: 0.99 },
      { title: "Deposit…", boost: 0 },
      { title: "Deposit from file", boost: 0.5 },
    ];
    // Two title prefixes, ordered by use; the much-used word prefix stays below both.
    expect(rank(items, "dep").map((i) => i.title)).toEqual(["Deposit from file", "Deposit…", "Go to Deposits"]);
    expect(rank(items.map((item) => ({ ...item, boost: 0 })), "dep").map((i) => i.title)).toEqual(["Deposit…", "Deposit from file", "Go to Deposits"]);
  });

  it("ranks the registry's commands: a table of terms and their first result, without and with the operator's history", () => {
    const admin = { username: "admin", role: 1 as const, flags: {} };
    const commands = commandsFor(admin);
    const firstFor = (term: string, used: Record<string, number> = {}) =>
      rank(
        commands.map((command) => ({ title: command.title, keywords: command.keywords, boost: used[command.id] ?? 0, id: command.id })),
        term,
      )[0]?.id;
    const table: Array<[term: string, history: Record<string, number>, first: string]> = [
      ["dep", {}, "account.deposit"],
      // Going to the screen often does not lift a word prefix above the command's own title.
      ["dep", { "go.deposits": 0.9 }, "account.deposit"],
      ["deposit", {}, "account.deposit"],
      ["with", {}, "account.withdraw"],
      ["settle", {}, "bets.settle-bet"],
      ["settle", { "bets.settle-market": 0.6 }, "bets.settle-market"],
      ["go", { "go.users": 0.3 }, "go.users"],
      ["go", { "go.users": 0.3, "go.deposits": 0.7 }, "go.deposits"],
      ["users", {}, "go.users"],
      ["pass", { "account.password": 0.5 }, "account.password"],
      ["trail", {}, "go.audit"],
    ];
    expect(table.map(([term, used]) => firstFor(term, used))).toEqual(table.map(([, , first]) => first));
  });

  it("ranks a keyword match a little below the same match in a title", () => {
    const ranked = rank([{ title: "Open logs", keywords: ["deposit"] }, { title: "Deposit…" }], "deposit");
    expect(ranked.map((i) => i.title)).toEqual(["Deposit…", "Open logs"]);
  });

  it("ranks incrementally exactly as from scratch, typing forward and back", () => {
    const many = Array.from({ length: 3000 }, (_, i) => ({
      title: `${["user", "panel", "agent"][i % 3]}${String(i).padStart(4, "0")}`,
      keywords: [i % 2 ? "user" : "panel"],
    }));
    const prepared = prepare(many);
    const incremental = createIncrementalRanker(prepared, 30);
    for (const term of ["u", "us", "use", "user", "user1", "user12", "user1", "user", "p", "pa", "pan", "zz", "z", "", "a0"]) {
      expect(incremental(term)).toEqual(rankPrepared(prepared, term, 30).ranked);
    }
  });

  it("caps the result count", () => {
    const many = Array.from({ length: 500 }, (_, i) => ({ title: `User ${i}` }));
    expect(rank(many, "user", 20)).toHaveLength(20);
  });

  it("narrows a server list's choices by their titles: the whole list in its order while blank, word starts first", () => {
    const events = [
      { eventId: "1", event: "Delhi Capitals v Mumbai Indians" },
      { eventId: "2", event: "Mumbai Indians v Chennai Super Kings" },
      { eventId: "3", event: "Punjab Kings v Rajasthan Royals" },
    ];
    const narrow = narrowChoices(events, (choice) => choice.event);
    expect(narrow("")).toEqual(events);
    expect(narrow("mumbai").map((choice) => choice.eventId)).toEqual(["2", "1"]);
    expect(narrow("raja").map((choice) => choice.eventId)).toEqual(["3"]);
    expect(narrow("kings").map((choice) => choice.eventId)).toEqual(["2", "3"]);
    expect(narrow("xyz")).toEqual([]);
    expect(narrowChoices(events, (choice) => choice.event, 2)("")).toHaveLength(2);
  });
});

describe("Settle market… and Void bets of event… arguments", () => {
  const settleMarket = commandById("bets.settle-market");
  const voidEvent = commandById("bets.void-event");
  const at = (pathname: string, search = "") => ({ pathname, search });
  const addressOf = async (command: Command, location: { pathname: string; search: string }, answers: Record<string, string>) => {
    let to = "";
    await command.run({ location, navigate: (address: string) => void (to = address) } as unknown as CommandContext, answers);
    return to;
  };

  it("asks the event, then one of that event's markets", () => {
    expect(settleMarket.steps).toEqual([
      expect.objectContaining({ kind: "pick", name: "event", source: "pending-events" }),
      expect.objectContaining({ kind: "pick", name: "market", source: "markets", event: "event" }),
    ]);
    expect(voidEvent.steps).toEqual([expect.objectContaining({ kind: "pick", name: "event", source: "pending-events" })]);
  });

  it("reads an event's market screen back to its event, and nothing from other addresses", () => {
    expect(eventOfDetailPath(marketDetailPath("cricket", "E 1/2"))).toBe("E 1/2");
    expect(eventOfDetailPath("/market-analysis/cricket/123")).toBe("123");
    expect(eventOfDetailPath("/market-analysis")).toBeUndefined();
    expect(eventOfDetailPath("/market-analysis/cricket")).toBeUndefined();
    expect(eventOfDetailPath("/market-analysis/cricket/123/more")).toBeUndefined();
    expect(eventOfDetailPath("/users/cricket/123")).toBeUndefined();
  });

  it("pre-answers the event on its market screen, the event and market where the desk is filtered to them", () => {
    expect(settleMarket.screenAnswers!(at("/market-analysis/cricket/123"))).toEqual({ event: "123" });
    expect(settleMarket.screenAnswers!(at("/pending-sport-bets", "?eventId=123&marketId=123-MO&user=9"))).toEqual({
      event: "123",
      market: "123-MO",
    });
    expect(settleMarket.screenAnswers!(at("/pending-sport-bets", "?eventId=123"))).toEqual({ event: "123" });
    // A market without its event is asked again, after the event.
    expect(settleMarket.screenAnswers!(at("/pending-sport-bets", "?marketId=123-MO"))).toEqual({});
    expect(settleMarket.screenAnswers!(at("/users", "?eventId=123"))).toEqual({});
    expect(voidEvent.screenAnswers!(at("/pending-sport-bets", "?eventId=123&marketId=123-MO"))).toEqual({ event: "123" });
  });

  it("opens the desk's dialog on the chosen event and market, keeping the desk's other filters", async () => {
    expect(await addressOf(settleMarket, at("/market-analysis/cricket/123"), { event: "123", market: "123-MO" })).toBe(
      "/pending-sport-bets?eventId=123&marketId=123-MO&settle=1",
    );
    expect(
      await addressOf(settleMarket, at("/pending-sport-bets", "?eventId=7&marketId=7-MO&user=9&page=3&open=5"), { event: "123", market: "123-BM" }),
    ).toBe("/pending-sport-bets?eventId=123&user=9&marketId=123-BM&settle=1");
    // Voiding an event drops the desk's market filter: the whole event is voided.
    expect(await addressOf(voidEvent, at("/pending-sport-bets", "?eventId=7&marketId=7-MO"), { event: "123" })).toBe(
      "/pending-sport-bets?eventId=123&void=1",
    );
  });
});

describe("registry", () => {
  it("has unique ids and unique key sequences", () => {
    const ids = COMMANDS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    const sequences = COMMANDS.flatMap((c) => c.keys ?? []);
    expect(new Set(sequences).size).toBe(sequences.length);
  });

  it("sends a transfer with the palette's requestId, so a retry of one run moves the money once", async () => {
    for (const id of ["account.deposit", "account.withdraw"]) {
      const sent: Array<Record<string, string>> = [];
      const context = { submitAction: async (_: string, values: Record<string, string>) => (sent.push(values), { ok: true, message: "" }) };
      const answers = { user: "u1", "user.mode": "users", "user.label": "user1", amount: "500", confirm: "yes" };
      for (let attempt = 0; attempt < 2; attempt++) await commandById(id).run(context as unknown as CommandContext, answers, "run-1-key");
      expect(sent.map((values) => values.requestId)).toEqual(["run-1-key", "run-1-key"]);
    }
  });

  it("marks every step asking a password or a second-factor code secret, so the palette history never keeps it", () => {
    const unmarked = COMMANDS.flatMap((command) =>
      (command.steps ?? [])
        .filter((step) => step.kind === "text" && /password|^(code|otp|totp)$/i.test(step.name) && !step.secret)
        .map((step) => `${command.id}: ${step.name}`),
    );
    expect(unmarked).toEqual([]);
    expect(entryOf(commandById("password.change"), { curPassword: "old", password: "new", confirmPassword: "new" })).toBeNull();
  });

  it("finds commands by id and filters by permission", () => {
    expect(commandById("session.logout").title).toBe("Logout");
    expect(() => commandById("nope")).toThrow();
    const staff = { username: "staff", role: 2 as const, flags: { deposits: true } };
    expect(commandsFor(staff).map((c) => c.id)).not.toContain("account.deposit");
    expect(commandsFor({ ...staff, flags: { users: true } }).map((c) => c.id)).toContain("account.deposit");
  });

  it("offers an operator with only `deposits` exactly the commands it may run: its desk's, its own account's, the shell's", () => {
    const depositsOnly = { username: "cashier", role: 2 as const, flags: { deposits: true } };
    expect(commandsFor(depositsOnly).map((c) => c.id).sort()).toEqual(
      [
        "go.home",
        "go.deposits",
        "go.change-password",
        // Every operator sees and ends their own console sessions (ADR 0010).
        "go.sessions",
        // Four-eyes: a deposit approval above the threshold waits there for a second cashier.
        "go.approvals",
        "request.approve-deposit",
        "request.reject-deposit",
        // Every operator may set up their own second factor (issue 30).
        "security.set-up",
        // Every list screen's views and columns (issue 32).
        "list.save-view",
        "list.choose-columns",
        "palette.open",
        "help.keys",
        "alerts.mute",
        "sidebar.toggle",
        "password.change",
        "session.logout",
      ].sort(),
    );
    expect(SIDEBAR_LINKS.filter((link) => mayUse(link, depositsOnly)).map((link) => link.label)).toEqual(["Deposits", "Change Password"]);
  });

  it("gives the settings commands to role 1 and `settings` staff, never partners; staff commands to role 1 alone", () => {
    const ids = (operator: Parameters<typeof commandsFor>[0]) => commandsFor(operator).map((c) => c.id);
    const settingsStaff = ids({ username: "s", role: 2, flags: { settings: true } });
    const partner = ids({ username: "p", role: 3, flags: {} });
    const admin = ids({ username: "a", role: 1, flags: {} });
    for (const id of ["settings.set-whatsapp-number", "settings.add-coupon", "settings.set-bonus-limits", "go.telegram", "go.slider"]) {
      expect(settingsStaff).toContain(id);
      expect(admin).toContain(id);
      expect(partner).not.toContain(id);
    }
    expect(partner).toContain("account.deposit");
    for (const id of ["staff.add", "staff.remove", "go.admins"]) {
      expect(admin).toContain(id);
      expect(settingsStaff).not.toContain(id);
      expect(partner).not.toContain(id);
    }
    expect(mayUse(SCREENS.admins, { username: "s", role: 2, flags: Object.fromEntries(STAFF_FLAGS.map((flag) => [flag, true])) })).toBe(false);
  });

  it("offers bulk commands to role 1 only, and only with a selection", () => {
    const admin = { username: "admin", role: 1 as const, flags: {} };
    const selection = { mode: "users" as const, rows: [{ id: "1", username: "u1" }] };
    const bulk = (ids: string[]) => ids.filter((id) => id.startsWith("bulk."));
    expect(bulk(commandsFor(admin, null).map((c) => c.id))).toEqual([]);
    expect(bulk(commandsFor(admin, selection).map((c) => c.id))).toHaveLength(4);
    expect(bulk(commandsFor({ ...admin, role: 3 as const }, selection).map((c) => c.id))).toEqual([]);
  });

  it("offers Bulk from file… without a selection to whoever uses the accounts desk (issue 34), never to staff without it", () => {
    const offered = (operator: Operator) => commandsFor(operator, null).some((command) => command.id === "accounts.bulk-file");
    expect(offered({ username: "admin", role: 1, flags: {} })).toBe(true);
    expect(offered({ username: "panel1", role: 3, flags: {} })).toBe(true);
    expect(offered({ username: "staff", role: 2, flags: { deposits: true } })).toBe(false);
  });
});

describe("commands on an API without some extensions", () => {
  const admin = { username: "admin", role: 1 as const, flags: {} };
  const lacking = {
    resettleBet: "The operator's API lacks this extension: POST /resettle-bet answered 404",
    bonusLimits: "The operator's API lacks this extension: GET /b2c/bonus-limits answered 404",
  };
  const refusals = (commands: ReturnType<typeof commandsFor>) =>
    Object.fromEntries(commands.filter((c) => c.refusal).map((c) => [c.id, c.refusal]));

  it("stay offered, each with the reason it cannot run: Resettle bet…, the bonus limits screen and its setting", () => {
    const commands = commandsFor(admin, null, lacking);
    expect(refusals(commands)).toEqual({
      "bets.resettle": lacking.resettleBet,
      "go.bonus-limits": lacking.bonusLimits,
      "settings.set-bonus-limits": lacking.bonusLimits,
    });
    expect(commands.map((c) => c.id)).toEqual(commandsFor(admin).map((c) => c.id));
  });

  it("are refused only once the API showed the extension missing, and a command needing none never is", () => {
    expect(refusals(commandsFor(admin))).toEqual({});
    const needsNone = COMMANDS.filter((c) => !c.extension).map((c) => c.id);
    expect(commandsFor(admin, null, lacking).filter((c) => needsNone.includes(c.id) && c.refusal)).toEqual([]);
    // Logout needs nothing: without /logout the console still forgets the session (session-flow.server.ts).
    expect(commandById("session.logout").extension).toBeUndefined();
  });

  it("name calls of the protocol table that are extensions", () => {
    for (const command of COMMANDS.filter((c) => c.extension)) expect(CALLS[command.extension!].mark).toBe("extension");
    for (const screen of Object.values(SCREENS) as Screen[]) if (screen.extension) expect(CALLS[screen.extension].mark).toBe("extension");
  });
});

describe("account cache", () => {
  it("keeps the latest of each account and forgets the oldest past its limit", () => {
    rememberAccounts([{ id: "1", username: "a", mode: "users", balance: 1 }]);
    rememberAccounts([{ id: "1", username: "a", mode: "users", balance: 2 }]);
    expect(cachedAccounts().filter((hit) => hit.id === "1")).toEqual([{ id: "1", username: "a", mode: "users", balance: 2 }]);
    rememberAccounts(
      Array.from({ length: ACCOUNT_CACHE_LIMIT }, (_, i) => ({ id: `n${i}`, username: `n${i}`, mode: "partners" as const, balance: 0 })),
    );
    expect(cachedAccounts()).toHaveLength(ACCOUNT_CACHE_LIMIT);
    expect(cachedAccounts().some((hit) => hit.id === "1")).toBe(false);
  });
});

describe("keys of each screen", () => {
  const screens = Object.entries(SCREENS) as Array<[string, { scopes?: readonly ("list" | "search" | "accounts" | "requests")[] }]>;

  it("no two commands of one screen share a key, and no key starts another", () => {
    for (const [, screen] of screens) expect(keyConflicts(screen.scopes ?? [])).toEqual([]);
  });

  it("fails when two commands of one scope share a key", () => {
    const clash = [
      { id: "requests.approve", title: "Approve", group: "Requests", scope: "requests", keys: ["a"] },
      { id: "requests.archive", title: "Archive", group: "Requests", scope: "requests", keys: ["a"] },
    ] as const;
    expect(keyConflicts(["requests"], clash)).toEqual(["a: requests.approve, requests.archive"]);
    expect(keyConflicts(["list"], [...clash, { id: "go", title: "Go", group: "Go to", keys: ["a b"], run: () => {} }])).toEqual([]);
    expect(keyConflicts([], [{ id: "g", title: "G", group: "View", keys: ["g"], run: () => {} }, ...COMMANDS])).not.toEqual([]);
  });

  it("every key a screen handles shows in its ? help: the scopes' commands are the screen's only keys", () => {
    expect(screenCommandsFor(SCREENS.users.scopes).map((c) => c.keys).flat()).toEqual(
      expect.arrayContaining(["x", "[", "]", "/", "enter"]),
    );
    expect(screenCommandsFor(SCREENS.deposits.scopes).map((c) => c.keys).flat()).toEqual(expect.arrayContaining(["a", "r", "1", "2", "3"]));
    expect(screenCommandsFor(SCREENS.deposits.scopes).map((c) => c.id)).not.toContain("list.search");
    for (const command of SCREEN_COMMANDS) expect(command.keys.length).toBeGreaterThan(0);
  });

  it("fails when code listens for keys outside the dispatcher (such keys would be missing from help)", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : /\.(ts|tsx)$/.test(name) && !name.includes(".test.") ? [path] : [];
      });
    const listeners = files("app").filter((path) => /(window|document)\.addEventListener\("key(down|up|press)"/.test(readFileSync(path, "utf8")));
    expect(listeners).toEqual(["app/commands/use-key-dispatcher.ts"]);
  });
});

describe("key matcher rebinding", () => {
  it("keeps a typed prefix when another screen's keys are bound", () => {
    const matcher = createSequenceMatcher<string>([["g h", "home"], ["x", "select"]]);
    expect(matcher.feed("g", 0)).toEqual({ kind: "pending", prefix: "g" });
    matcher.rebind([["g h", "home"], ["a", "approve"]]);
    expect(matcher.feed("h", 10)).toEqual({ kind: "run", target: "home" });
    expect(matcher.feed("x", 20)).toEqual({ kind: "none" });
    expect(matcher.feed("a", 30)).toEqual({ kind: "run", target: "approve" });
  });
});

describe("pick sources", () => {
  it("every pick step names a declared source, and its other fields name earlier steps", () => {
    const FIELDS = ["kind", "name", "label", "source"];
    const problems = COMMANDS.flatMap((command) =>
      (command.steps ?? []).flatMap((step, index) => {
        if (step.kind !== "pick") return [];
        const earlier = command.steps!.slice(0, index).map((other) => other.name);
        return [
          ...(step.source in PICK_SOURCES ? [] : [`${command.id}: no source ${step.source}`]),
          ...Object.entries(step)
            .filter(([field, value]) => !FIELDS.includes(field) && !earlier.includes(value))
            .map(([field, value]) => `${command.id}: ${field} names no earlier step (${value})`),
        ];
      }),
    );
    expect(problems).toEqual([]);
  });
});
