/**
 * Issue 35, part 2: a screen switch, timed in the page from the keydown of `g` to the first
 * animation frame in which the screen's title and its table are in the document (checked in every
 * frame, not by polling). 7 screens × 8 rounds at 100,000 users; the first round is each screen's
 * first visit after sign-in. The letter follows `g` at once, as a quick operator types them.
 * Budget: p95 ≤ 50 ms and p50 ≤ 25 ms.
 */
import { chromium, type Page } from "@playwright/test";
import { loadavg } from "node:os";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../tests/fixtures/chromium";
import { documentTitle } from "../app/lib/page";
import { SCREENS, type Screen, type ScreenId } from "../app/lib/screens";
import { FIRST_VISITS_AFTER_MS } from "../app/lib/screen-cache";
import { benchDataDir, percentile, record, signInConsole, startStack } from "./lib";

const SEED = { users: 100_000, bets: 125_000 };
const ROUNDS = 8;
const BUDGET = { p95: 50, p50: 25 };
/** Home and the desks a shift lives in; Users and Report V1 had the slowest tails when the issue was filed. */
const MEASURED: readonly ScreenId[] = ["home", "users", "partners", "deposits", "withdraws", "pending-sport-bets", "report-v1"];
/** What says a screen's data is painted: its table (home: its lines, or the words saying there are none; a report: its figures). */
const PAINTED = "[role=grid], .home-lines, .home p.dim, .report-cards";
const PORTS = [Number(process.env.BENCH_PLATFORM_PORT ?? 4450), Number(process.env.BENCH_CONSOLE_PORT ?? 3450)] as const;

/** Issue 32: applying a saved view adds at most this much to a screen switch. */
const VIEW_BUDGET_MS = 10;
/** The bench's view of Users: Mob No. and the message column hidden, Balance moved before Username. */
const VIEW_QUERY = "cols=id,balance,username,password,bonus,report,bets,deposits,withdraws,actions,md,logs,createdAt";

type Target = { letter: string; path: string; title: string };

/** Each target switched to once, in order, from the keydown of `g`; milliseconds. */
function switchTimes(page: Page, targets: readonly Target[]): Promise<number[]> {
  return page.evaluate(
    async ({ targets, painted }) => {
      const result: number[] = [];
      for (const { letter, path, title } of targets) {
        const started = performance.now();
        window.dispatchEvent(new KeyboardEvent("keydown", { key: "g", bubbles: true }));
        window.dispatchEvent(new KeyboardEvent("keydown", { key: letter, bubbles: true }));
        // Every frame until the one that shows the screen's title and its table.
        for (;;) {
          await new Promise((done) => requestAnimationFrame(done));
          if (location.pathname === path && document.querySelector(".page-title")?.textContent === title && document.querySelector(painted)) break;
          if (performance.now() - started > 10_000) throw new Error(`${path} did not show`);
        }
        result.push(performance.now() - started);
        // A quick operator's glance before the next switch.
        await new Promise((done) => setTimeout(done, 150));
      }
      return result;
    },
    { targets, painted: PAINTED },
  );
}

/** ROUNDS times through `targets`: each round's times. */
async function pairs(page: Page, targets: readonly Target[]): Promise<number[][]> {
  const rounds: number[][] = [];
  for (let round = 0; round < ROUNDS; round++) rounds.push(await switchTimes(page, targets));
  return rounds;
}

/** What the measurements so far showed, kept with the figures each run records. */
const FINDINGS = `First visits (2026-11-27). The shell's first idle moment after sign-in (app/components/ui/Shell.tsx) imports the
lettered screens' route modules the page has discovered, the sidebar's (app/lib/route-code.ts), and reads the desks marked \`readAhead\` ahead (Deposits,
Withdrawals, Pending Sport Bets: app/lib/screens.ts), each read again once shown. Before it (07:29Z, load 1.2) the first visits took: Users 144 ms,
Panels 72, Deposits 65, Withdrawals 50, Pending Sport Bets 102; all switches p50 19 ms, p95 72 ms. With it (16:32Z, load
1.3): Users 90, Panels 72, Deposits 25, Withdrawals 20, Pending Sport Bets 36; p50 20 ms, p95 55 ms. Remix's
\`PrefetchPageLinks\` for the same code was tried first and made every switch slower (p50 31 ms, p95 95 ms): each of its
25 mounted links matches its page's routes again and reloads their links on every navigation.

Row links (2026-11-27). A trace of home ⇄ Users (24 pairs) gave per pair about 46 ms of script (React's render and
commit about 27), 11 ms of paint, 9.5 ms of layout (forced in the table's measuring layout effect) and 5 ms of style.
Users' rows held about 150 router links (Report, Bets, Deposits, Withdrawals), each with its own hooks; they are plain
anchors now, which the table follows in the page (columns.tsx \`linkColumn\`, Table's \`followLink\`). Two runs after
it: p95 47 and 46 ms, p50 19 and 17 ms, Users' first visit 82 ms. Three later runs (18:13–18:22Z, right after
clean-clone CI runs, load 1.3–1.9 at the start) gave p95 63, 58 and 54 ms and p50 25, 21 and 21 ms; the last of them
ran the screen cache of before the re-read of idle reads (a later change), so the spread is the machine's: on 2
shared cores the p95 sits at the 50 ms budget, within it on a quiet machine and over it on a busier one. Not measuring the table body on mount (a remembered
height, the resize observer correcting it) was tried and made Users slower (p50 36 → 43 ms in a smaller run): the
layout moves to the frame and comes twice. What is left above 50 ms: the account lists' first visits, whose data is
not read ahead (the super admin's pages carry passwords, which the API audits as shown). Two runs on a quieter machine after the
next changes (22:20Z and 22:22Z, load 1.6 and 1.4 at the start; a desk read ahead only once its code loaded, the
layout's reload kept through an outage): p95 39 and 31 ms, p50 18 and 15 ms, Users' first visit 89 and 71 ms.

The table's first frame (2026-11-28, a slow day: the same code ran this bench at p50 31 ms, p95 79 ms, Users p50 54 ms).
A trace of Users' switch: 1,558 layout objects laid out in 11–18 ms (forced by the table's measure on mount), style
5–11 ms, the rest React's render and commit; its 39 rows were the 31 in view and 8 below (overscan). The table now draws
the rows in view alone in its first frame and the 8 above and below once that frame has painted (Table.tsx \`afterPaint\`),
and a resize observer's first call that repeats the mount's measure renders nothing again. Interleaved in one page
(home ⇄ the screen, 25–40 switches each way, to the frame holding the table and to the next frame, painted): Users 57 → 44
and 45 → 39 ms (painted 80 → 63 and 66 → 59), Pending Sport Bets 39 → 34 ms (painted 59 → 51). This bench after it, twice
(load 1.5 and 1.3 at the start): p50 27 and 32 ms, Users p50 42 and 53, Pending Sport Bets 36 and 49, as spread as the
machine; the p95 (83 and 69 ms) stays on the first visits (Users 138 and 144, Panels 92 and 102), whose
trace shows the data's read (25–55 ms in the console and the platform) and then a render about twice a repeat's: the
screen's code runs for the first time (V8 compiles and runs it unoptimised). Starting a table with the last measured
height instead of 600 px changed nothing measurable. The layers' code (palette, key help, job runner) now loads at the
first idle moment too, not beside the first switch when \`g\` is the first key. The account lists are read ahead at that moment for
every operator but the super admin (a partner's or staff's pages carry no passwords, so the API records nothing as
revealed); this bench signs in as the super admin, whose account lists still read their data on the first visit.

Later the same day (17:32Z, a faster machine: the same code's clean-clone \`npm test\` took 640 s against 843–957 s before):
p50 19 ms, p95 51 ms, Users' first visit 79 ms and Panels' 58 ms; the p95 (the third slowest of 56 switches) was a
repeat visit, to Users or Panels (no other screen's reached it). Home ⇄ Users 30 times in one page, to the frame holding the table: p50 24–27 ms. Its profile puts
about 9 ms of each switch in the layout the table's measure forces (Table.tsx), most of the rest in React's render and
commit; the screen's own code (its columns, links and formatting) about 3 ms. Tried and not kept, each alternated with the
code as it is, three runs each: \`contain: strict\` on the rows (p50 29–30 against 25–27 ms), and no rows drawn before the
body's first measure (p50 22–25 against 24–26 ms, within the runs' spread, and a server render without rows). Two runs on a quieter
machine after it (18:20Z and 18:22Z, load 0.3 and 1.6 at the start): p50 17 and 18 ms, p95 36 and 41 ms, within both
budgets; the first visits to Users (74 and 71 ms) and Panels (62 and 50 ms) were the slowest switches.

Another machine later the same day (21:00Z) was slower again: the same code's \`npm test\` took 1,380 s
there against 613 s on the faster one, its Playwright phase 904 s against 333. This bench gave p50 32 ms and p95 88 ms,
Users' first visit 184 ms: the same shape as on the fast machine (the account lists' first visits slowest, then Pending
Sport Bets), each figure about twice as long. No code of the switches changed between the two runs.

The next night (2026-11-29, 00:20Z) a faster machine, whose clean-clone \`npm test\` of the same code took
551 s, gave p50 17 ms and p95 45 ms: within both budgets. The slowest switches were still the account lists' first visits
(Users 85 ms, Panels 61 ms), then Pending Sport Bets' (45 ms, the p95: the third slowest of 56). A saved view added 4.3 ms.

The morning after (2026-11-29, 03:50Z, the figures above), on a machine about a sixth slower (the same code's clean-clone
\`npm test\` 613 s against 551 s), with the client's scripts grouped by the pages that load them (docs/decisions/0011-client-chunks.md:
the shell's 40 scripts now 9): p50 17 ms and p95 28 ms, within both budgets. The account lists' first visits were still the
slowest (Users 82 ms, Panels 51 ms); Pending Sport Bets' first 26 ms against 45 ms. A saved view added 0.5 ms.

The same day at 11:18Z–11:25Z, on a slower machine (the clean-clone \`npm test\` of this session's head took 706 s, each of its
phases 1.4–1.5 times the 476 s run's), two runs of that head: p50 28 and 28 ms, p95 58 and 76 ms (the figures above are the
second), over both budgets, with the account lists' first visits slowest (Users 162 and 143 ms, Panels 81 and 95 ms). The commit that measured 17 and 28 ms at 03:50Z, built and run here right after, gave p50 28 ms and
p95 61 ms (Users' first visit 116 ms): the machine's, not the code's. Nothing on a switch's path changed since.

The same afternoon (12:53Z and 14:17Z), on the slowest machine yet (the clean-clone \`npm test\` of 9baff93 took 1,105 s
against 699 s for the same commit on the late morning's machine, and 476 s for all its tests but nine at 08c1877 on the
machine before it), the same code:
p50 35 and 44 ms, p95 92 and 95 ms, Users' first visit the slowest as ever (185 ms in the second run). Every switch took
two to two and a half times as long as at 03:50Z (p50 17 ms), the repeat visits as much as the first: the machine's speed again.

The evening (16:48Z–17:22Z), on another machine (its clean-clone Vitest phase as slow as the afternoon's), after cb09ef5
(a desk's read ahead told from a switch by where Remix's navigation goes: one read of the router's state per loader call):
p50 28 ms and p95 79 ms with a load of 3.0 at the start, then p50 25 ms and p95 65 ms (load 2.0), with a
desk's mounted read ahead no longer read again when a switch or a revalidation reloads its fetcher. The slowest switches
were the first visits as ever (Users 147–177 ms; timed alone, its data arrived 45–85 ms after the keydown and the rest was
its first render). Tried and not kept: the first idle moment also waiting for a switch under way (an operator's \`g u\` the
moment the desks' reads began made Users' first visit wait behind them, 236 ms against 132–151 alone). Here it moved the
code's loading and the reads into the first round, which this bench starts as the idle moment comes: p50 33 ms, p95 158 ms,
home's first visit 158 ms, Deposits' 194.

The next hours (18:47Z–19:34Z), on a faster machine (the clean-clone \`npm test\` of df7a7e9 took 510 s here against 1,063 s
on the machine before): df7a7e9 gave p50 18 ms and p95 36 ms (Users' first visit 91 ms), and f7377bc (a read ahead's fetcher
loading beside the switch to its own address told from it by coming after the switch's loader call) the figures above, p50
17 ms and p95 32 ms (Users' first visit 70 ms): within both budgets, where the same switch path measured p50 25 and p95 65 ms on the machine before.`;

export async function benchSwitches(): Promise<void> {
  const stack = await startStack(...PORTS, { dataDir: benchDataDir(SEED) });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const load = loadavg()[0]!;
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await signInConsole(page, stack.consoleUrl);
    // An operator's first glance at home: the idle moment in which the shell readies the first visits.
    await page.waitForTimeout(FIRST_VISITS_AFTER_MS);
    await page.waitForLoadState("networkidle");
    const targets: Target[] = MEASURED.map((id) => {
      const { letter, path, label } = SCREENS[id] as Screen;
      if (!letter) throw new Error(`${id} has no letter`);
      return { letter, path, title: documentTitle(label) };
    });
    // Sign-in lands on home: the rounds start from the last screen, so home is a switch too.
    await page.keyboard.press("g");
    await page.keyboard.press(targets.at(-1)!.letter);
    await page.waitForURL((url) => url.pathname === targets.at(-1)!.path);
    await page.waitForLoadState("networkidle");
    const samples = new Map(targets.map(({ path }) => [path, [] as number[]]));
    for (let round = 0; round < ROUNDS; round++) {
      (await switchTimes(page, targets)).forEach((time, i) => samples.get(targets[i]!.path)!.push(time));
    }
    // A saved view's cost: home ⇄ Users, first without a view, then with a default view of Users (two
    // columns hidden, one moved) that the page has read once.
    const [home, users] = [targets.find((target) => target.path === "/")!, targets.find((target) => target.path === "/users")!];
    const usersPlain = (await pairs(page, [home, users])).map((round) => round[1]!);
    const saved = await page.evaluate(async (query) => {
      const response = await fetch("/resources/views", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ intent: "save", screen: "users", view: { name: "bench", query, isDefault: true } }),
      });
      return response.ok;
    }, VIEW_QUERY);
    if (!saved) throw new Error("the bench's view was not saved");
    await switchTimes(page, [users, home]);
    const usersViewed = (await pairs(page, [home, users])).map((round) => round[1]!);
    const shownColumns = await page.getByRole("grid", { name: "Users" }).getByRole("columnheader").count();
    const all = [...samples.values()].flat();
    const viewCost = percentile(usersViewed, 50) - percentile(usersPlain, 50);
    const p50 = percentile(all, 50);
    const p95 = percentile(all, 95);
    const rows = [...samples].map(
      ([path, times]) => `| \`${path}\` | ${times[0]!.toFixed(0)} ms | ${percentile(times, 50).toFixed(0)} ms | ${percentile(times, 95).toFixed(0)} ms | ${Math.max(...times).toFixed(0)} ms |`,
    );
    record(
      "Screen switches from the keydown of `g` (issue 35)",
      [
        `${MEASURED.length} screens × ${ROUNDS} rounds as the super admin, the letter dispatched right after \`g\`, timed in the page from the`,
        "keydown of `g` to the first animation frame in which the screen's title and its table are in the document (checked in every",
        `frame). The first round is each screen's first visit after sign-in, which waits on home ${FIRST_VISITS_AFTER_MS / 1000} s and until the network is idle (the`,
        "shell's first idle moment loads the lettered screens' code and reads the light desks ahead). Chromium headless against the built console and the",
        `platform on PGlite seeded with \`--users ${SEED.users} --bets ${SEED.bets}\`. Load average (1 min) at the start: ${load.toFixed(1)}, on 2 cores.`,
        "",
        `**All switches: p50 ${p50.toFixed(0)} ms (budget ${BUDGET.p50}: ${p50 <= BUDGET.p50 ? "within" : "OVER"}), p95 ${p95.toFixed(0)} ms (budget ${BUDGET.p95}: ${p95 <= BUDGET.p95 ? "within" : "OVER"}).**`,
        "",
        "| screen | first visit | p50 | p95 | max |",
        "|---|---|---|---|---|",
        ...rows,
        "",
        `Applying a saved view: home ⇄ Users ${ROUNDS} times without a view, then ${ROUNDS} times with a default view of Users`,
        `(\`${VIEW_QUERY}\`, ${shownColumns} columns shown) that the page has read once. Users p50 ${percentile(usersPlain, 50).toFixed(0)} ms → ${percentile(usersViewed, 50).toFixed(0)} ms,`,
        `p95 ${percentile(usersPlain, 95).toFixed(0)} ms → ${percentile(usersViewed, 95).toFixed(0)} ms: the view adds ${viewCost.toFixed(1)} ms at p50 (budget ${VIEW_BUDGET_MS} ms: ${viewCost <= VIEW_BUDGET_MS ? "within" : "OVER"}).`,
        "",
        FINDINGS,
      ].join("\n"),
    );
  } finally {
    await browser.close();
    await stack.stop();
  }
}
