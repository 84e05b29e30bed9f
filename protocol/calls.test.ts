import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CALL_LIST, CALLS, REALTIME_MARKS } from "./calls";

// docs/product.md §7.2, row by row, with the query each row names ("/b2c/{report path}" is /b2c/report, as docs/protocol.md "Reports (platform)" names it).
const SPEC_CALLS: Record<string, string[]> = {
  "GET /permissions": [],
  "GET /partner-roles": [],
  "POST /add-user": [],
  "GET /b2c/admin": [],
  "POST /user-deposit": [],
  "POST /user-withdraw": [],
  "POST /change-user-password": [],
  "GET /user-permissions/:id": [],
  "GET /partner-permissions/:id": [],
  "POST /change-permissions": [],
  "GET /users": ["username", "page", "orderBy", "isAcc", "partner"],
  "GET /partners": ["username", "page", "orderBy", "isAcc", "partner"],
  "GET /download-users": ["username", "page", "orderBy", "isAcc", "partner"],
  "GET /login-logs/:userId": [],
  "GET /b2c/make-default-admin/:id": [],
  "GET /b2c/default-admin": [],
  "POST /login": [],
  "GET /b2c/report": ["user", "type", "username", "from", "to"],
  "GET /report": ["user", "type", "username", "from", "to"],
  "GET /transaction": ["user", "role", "username", "type", "page"],
  "GET /user-bets": ["from", "to", "page", "type", "user"],
  "GET /download-bets": ["from", "to", "page", "type", "user"],
  "GET /b2c/user-profit/:id": [],
  "POST /change-password": [],
  "GET /b2c/deposits/:status": ["orderBy", "isAcc", "page"],
  "POST /b2c/update-deposit": [],
  "GET /b2c/withdraws/:status": ["page", "orderBy", "isAcc"],
  "POST /b2c/update-withdraw": [],
  "GET /b2c/bank-details": [],
  "POST /b2c/update-bank-deatils": [],
  "GET /b2c/whatsapp": [],
  "POST /b2c/update-whatsapp": [],
  "GET /b2c/slider": [],
  "POST /b2c/add-slider": [],
  "GET /b2c/bonus": [],
  "POST /b2c/update-bonus": [],
  "GET /b2c/telegram": [],
  "POST /b2c/update-telegram": [],
  "GET /b2c/ref-bonus": [],
  "POST /b2c/update-ref-bonus": [],
  "GET /b2c/coupons": [],
  "POST /b2c/add-coupon": [],
  "GET /b2c/admins": [],
  "POST /b2c/add-admin": [],
  "GET /b2c/remove-admin/:id": [],
  "GET /b2c/main-bonus": [],
  "POST /b2c/update-main-bonus": [],
  "GET /matches/:sport": [],
  "POST /market-green": [],
  "GET /market-bets": ["eventId", "sport", "client"],
  "GET /scorecard/:eventId": ["sport"],
  "GET /sports-pending-bets": ["page"],
  "POST /settel-bet": [],
  "GET /is-logouted/:udid": [],
};

const specPart = (entry: (typeof CALL_LIST)[number]) =>
  Object.entries(entry.query)
    .filter(([, mark]) => mark === "spec")
    .map(([name]) => name)
    .sort();

describe("the calls table", () => {
  it("marks exactly the spec's calls spec, with exactly the query parameters the spec names", () => {
    const marked = Object.fromEntries(CALL_LIST.filter((entry) => entry.mark === "spec").map((entry) => [`${entry.method} ${entry.path}`, specPart(entry)]));
    expect(marked).toEqual(Object.fromEntries(Object.entries(SPEC_CALLS).map(([call, query]) => [call, [...query].sort()])));
  });

  it("marks the extensions docs/protocol.md lists", () => {
    for (const name of ["logout", "resettleBet", "bonusLimits", "updateBonusLimits", "removeSlider", "sliderImage", "upload"] as const) {
      expect(CALLS[name].mark, name).toBe("extension");
    }
    expect(CALLS.pendingBets.query).toMatchObject({ pageSize: "extension", eventId: "extension", marketId: "extension" });
    expect(CALLS.userDeposit.bodyExtensions).toEqual(["requestId"]);
    expect(CALLS.reportV1.answerExtensions).toEqual(["daily"]);
    expect(REALTIME_MARKS).toEqual({ "new-deposit": "spec", "new-withdraw": "spec", "market-update": "extension", "bet-settled": "extension" });
  });

  it("holds each method and path once", () => {
    const keys = CALL_LIST.map((entry) => `${entry.api} ${entry.method} ${entry.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("marks the extension fields of spec calls only (an extension call is an extension whole)", () => {
    for (const entry of CALL_LIST.filter((call) => call.mark === "extension")) {
      expect([...Object.values(entry.query), ...entry.bodyExtensions, ...entry.answerExtensions], entry.name).toEqual([]);
    }
  });

  it("has every extension in docs/protocol.md's table, with what the console does without it", () => {
    const doc = readFileSync("docs/protocol.md", "utf8");
    const rows = doc
      .slice(doc.indexOf("## Spec calls and extensions"), doc.indexOf("## Transport"))
      .split("\n")
      .filter((line) => /^\| .+ \| .+ \| .+ \|$/.test(line));
    const undocumented: string[] = [];
    const expectRow = (...words: string[]) => {
      if (!rows.some((row) => words.every((word) => row.includes(word)))) undocumented.push(words.join(" "));
    };
    for (const entry of CALL_LIST) {
      const path = entry.path.replace(/:([A-Za-z]+)/g, "{$1}");
      if (entry.mark === "extension") expectRow(`${entry.method} ${path}`);
      for (const [name, mark] of Object.entries(entry.query)) if (mark === "extension") expectRow(`\`${name}\``, path);
      for (const name of [...entry.bodyExtensions, ...entry.answerExtensions]) expectRow(`\`${name}\``, path);
    }
    for (const [event, mark] of Object.entries(REALTIME_MARKS)) if (mark === "extension") expectRow(`\`${event}\``);
    expect(undocumented).toEqual([]);
  });
});
