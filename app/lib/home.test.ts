import { describe, expect, it } from "vitest";
import { homeLines, type HomeSources, type LineId } from "./home";

const NOW = Date.parse("2025-03-01T10:00:00Z");
const LIMITS = { amberMinutes: 5, redMinutes: 15 };
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

/** Every source answering, as the super admin sees them. */
const ALL: Required<HomeSources> = {
  deposits: { ok: true, value: { count: 3, total: 4500, oldest: minutesAgo(7) } },
  withdraws: { ok: true, value: { count: 1, total: 250, oldest: minutesAgo(20) } },
  settlement: { ok: true, value: { markets: 2, bets: 37, stake: 12000, oldestClose: minutesAgo(30) } },
  approvals: { ok: true, value: { forYou: 1, yours: 2, on: true } },
  jobs: { ok: true, value: { unfinished: 1, lastActivity: [minutesAgo(1), minutesAgo(10)] } },
  risk: { ok: true, value: { worst: [{ label: "India v Australia", worstCase: -1200 }], unread: 0 } },
  today: { ok: true, value: { profit: 800, daily: [{ day: "2025-02-28", profit: -100 }, { day: "2025-03-01", profit: 800 }] } },
  api: { answeredAt: minutesAgo(0), silent: [], lacking: [] },
};

const SOURCE_IDS = ["deposits", "withdraws", "settlement", "approvals", "jobs", "risk", "today"] as const satisfies readonly LineId[];
const text = (line: { parts: { text: string }[] }) => line.parts.map((part) => part.text).join(" · ");

describe("home's lines", () => {
  it("shows one line per source, in order, with its figures", () => {
    const lines = homeLines(ALL, NOW, LIMITS);
    expect(lines.map((line) => line.id)).toEqual([...SOURCE_IDS, "api"]);
    expect(lines.every((line) => line.state === "ok")).toBe(true);
    const [deposits, withdraws] = lines;
    expect(text(deposits!)).toBe("3 waiting · oldest 7m · total 4,500.00");
    expect(deposits!.parts[1]!.tone).toBe("amber");
    expect(withdraws!.parts[1]!.tone).toBe("red");
    expect(text(lines.find((line) => line.id === "jobs")!)).toBe("1 unfinished of yours · 1 making no progress");
    expect(lines.find((line) => line.id === "today")!.sparkline).toEqual([-100, 800]);
  });

  for (const id of SOURCE_IDS) {
    it(`a failing ${id} source shows its own line as unavailable, and every other line still shows`, () => {
      const lines = homeLines({ ...ALL, [id]: { ok: false, reason: "No answer from the API" } }, NOW, LIMITS);
      const failed = lines.find((line) => line.id === id)!;
      expect(failed.state).toBe("unavailable");
      expect(text(failed)).toBe("unavailable: No answer from the API");
      expect(lines.filter((line) => line.id !== id).map((line) => line.state)).toEqual(Array(7).fill("ok"));
    });
  }

  it("shows only the sources the operator may see", () => {
    expect(homeLines({ deposits: ALL.deposits }, NOW, LIMITS).map((line) => line.id)).toEqual(["deposits"]);
  });

  it("says why closed markets are unknown where the API lacks /market-results, and no sparkline without daily figures", () => {
    const lines = homeLines(
      { settlement: { ok: true, value: { lacking: "closed markets need /market-results, which this API lacks" } }, today: { ok: true, value: { profit: -50, daily: null } } },
      NOW,
      LIMITS,
    );
    expect(lines[0]).toMatchObject({ id: "settlement", state: "unknown" });
    expect(text(lines[0]!)).toBe("unknown: closed markets need /market-results, which this API lacks");
    expect(text(lines[1]!)).toMatch(/^Loss −50.00 · no sparkline: the API's reports lack the daily figures/);
    expect(lines[1]!.sparkline).toBeUndefined();
  });

  it("leaves four-eyes out while it is off and holds nothing for or by the operator", () => {
    const off = homeLines({ approvals: { ok: true, value: { forYou: 0, yours: 0, on: false } } }, NOW, LIMITS);
    expect(off).toEqual([]);
  });
});
