/**
 * The sports feed simulator: a SportsFeed that writes cricket, football and tennis events
 * into a FeedStore. Match-odds prices and sizes random-walk, bookmaker markets quote one
 * price a side, cricket fancy lines follow a simulated innings, and an event that ends
 * closes its markets with results and is replaced by the next one. Everything follows from
 * `seed` (FEED_SEED), so two runs with the same seed produce the same events and moves.
 */
import type { SportCode } from "../../protocol/wire.js";
import { mulberry32 } from "./random.js";
import type { FeedEvent, FeedMarket, FeedRunner, FeedStore, SportsFeed } from "../modules/sports/feed.js";

const TEAMS: Record<SportCode, readonly string[]> = {
  0: ["India", "Australia", "England", "South Africa", "Mumbai Indians", "Chennai Super Kings", "Pakistan", "New Zealand"],
  1: ["Arsenal", "Chelsea", "Real Madrid", "Barcelona", "Bayern Munich", "Dortmund", "Inter", "Milan"],
  2: ["Alcaraz", "Sinner", "Djokovic", "Medvedev", "Swiatek", "Sabalenka", "Zverev", "Rune"],
};
const SPORT_CODES: readonly SportCode[] = [0, 1, 2];
/** Events kept open per sport; the first of each is in play. */
const EVENTS_PER_SPORT = 3;
/** Ticks an in-play event lasts before its result. */
const EVENT_TICKS = 120;
/** Cricket overs simulated over an event. */
const OVERS = 20;
const FANCY_LINES = [
  { heading: "Session", overs: 6 },
  { heading: "Session", overs: 10 },
  { heading: "Innings", overs: 20 },
] as const;
/** Fancy rates per 100 (yes / no), as Indian books quote them. */
const FANCY_RATE = { yes: 100, no: 100 } as const;


const round2 = (value: number) => Math.round(value * 100) / 100;
const clampPrice = (price: number) => Math.min(50, Math.max(1.01, round2(price)));

type SimEvent = {
  event: FeedEvent;
  /** Each runner's chance of winning, which the prices follow. */
  chances: number[];
  runners: string[];
  ticks: number;
  runs: number;
  overs: number;
  /** Runs at each fancy line's over, once reached. */
  runsAt: Map<number, number>;
};

/** A market the simulator closed, with the result it reported. */
export type MarketClose = { marketId: string; result: string };

export type FeedSimulatorOptions = {
  seed: number;
  store: FeedStore;
  /** Called with each event whose prices or state changed. */
  onChange?: (eventId: string) => void;
  now?: () => number;
  /** How often start() ticks. */
  tickMs?: number;
};

export function createFeedSimulator({ seed, store, onChange = () => {}, now = Date.now, tickMs = 2000 }: FeedSimulatorOptions) {
  const random = mulberry32(seed);
  const live = new Map<string, SimEvent>();
  let counter = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const marketIds = (eventId: string) => ({ odds: `${eventId}-MO`, bookmaker: `${eventId}-BM`, fancy: (overs: number) => `${eventId}-F${overs}` });

  function newEvent(sport: SportCode, inplay: boolean): SimEvent {
    counter += 1;
    const teams = TEAMS[sport];
    const a = Math.floor(random() * teams.length);
    const b = (a + 1 + Math.floor(random() * (teams.length - 1))) % teams.length;
    const eventId = `${seed}${sport}${String(counter).padStart(5, "0")}`;
    const teamA = teams[a]!;
    const teamB = teams[b]!;
    const runners = sport === 1 ? [teamA, teamB, "The Draw"] : [teamA, teamB];
    const weights = runners.map(() => 0.5 + random());
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    return {
      event: {
        eventId,
        sport,
        teamA,
        teamB,
        startTime: new Date(now() + (inplay ? -30 : 30 + counter * 15) * 60_000),
        inplay,
        status: "OPEN",
        score: [],
      },
      chances: weights.map((weight) => weight / total),
      runners,
      ticks: 0,
      runs: 0,
      overs: 0,
      runsAt: new Map(),
    };
  }

  function oddsRunners(sim: SimEvent, bookmaker: boolean): FeedRunner[] {
    return sim.runners.map((name, i) => {
      const fair = 1 / sim.chances[i]!;
      const back = clampPrice(fair * 0.98);
      const lay = clampPrice(Math.max(back + 0.01, fair * 1.02));
      const size = () => round2(100 + random() * 5000);
      return {
        name,
        status: "ACTIVE",
        back: { price: back, size: bookmaker ? null : size() },
        lay: { price: lay, size: bookmaker ? null : size() },
      };
    });
  }

  /** The run line a fancy market quotes now: runs so far plus the expected rest at the current rate. */
  function fancyLine(sim: SimEvent, overs: number): number {
    const rate = sim.overs > 0 ? sim.runs / sim.overs : 8;
    return Math.max(sim.runs, Math.round(sim.runs + Math.max(0, overs - sim.overs) * rate));
  }

  function marketsOf(sim: SimEvent): FeedMarket[] {
    const ids = marketIds(sim.event.eventId);
    const status = sim.event.status === "CLOSED" ? "CLOSED" : "OPEN";
    const markets: FeedMarket[] = [
      { marketId: ids.odds, eventId: sim.event.eventId, type: "odds", name: "Match Odds", heading: null, status, runners: oddsRunners(sim, false) },
      { marketId: ids.bookmaker, eventId: sim.event.eventId, type: "bookmaker", name: "Bookmaker", heading: null, status, runners: oddsRunners(sim, true) },
    ];
    if (sim.event.sport === 0) {
      for (const line of FANCY_LINES) {
        const name = `${line.overs} Over Runs ${sim.event.teamA}`;
        const run = fancyLine(sim, line.overs);
        const reached = sim.runsAt.has(line.overs);
        markets.push({
          marketId: ids.fancy(line.overs),
          eventId: sim.event.eventId,
          type: "fancy",
          name,
          heading: line.heading,
          status: reached ? "SUSPENDED" : status,
          runners: [{ name, status: "ACTIVE", back: { price: run + 1, size: FANCY_RATE.yes }, lay: { price: run, size: FANCY_RATE.no } }],
        });
      }
    }
    return markets;
  }

  async function write(sim: SimEvent): Promise<void> {
    await store.putEvent(sim.event);
    for (const market of marketsOf(sim)) await store.putMarket(market);
    onChange(sim.event.eventId);
  }

  /** Advances one in-play event: prices drift, the innings moves on, and at the end the results it closed. */
  async function advance(sim: SimEvent): Promise<MarketClose[] | undefined> {
    sim.ticks += 1;
    const drift = sim.chances.map((chance) => Math.max(0.02, chance * (0.9 + random() * 0.2)));
    const total = drift.reduce((sum, value) => sum + value, 0);
    sim.chances = drift.map((value) => value / total);
    if (sim.event.sport === 0) {
      sim.overs = Math.min(OVERS, (sim.ticks / EVENT_TICKS) * OVERS);
      sim.runs += Math.floor(random() * 3);
      for (const line of FANCY_LINES) {
        if (!sim.runsAt.has(line.overs) && sim.overs >= line.overs) sim.runsAt.set(line.overs, sim.runs);
      }
      sim.event.score = [`${sim.event.teamA} ${sim.runs}/${Math.floor(random() * 3 + sim.ticks / 30)} (${sim.overs.toFixed(1)} ov)`];
    } else {
      sim.event.score = [`${sim.event.teamA} v ${sim.event.teamB}: ${Math.round(sim.ticks / EVENT_TICKS * 100)} % played`];
    }
    if (sim.ticks < EVENT_TICKS) {
      await write(sim);
      return undefined;
    }

    sim.event.status = "CLOSED";
    sim.event.inplay = false;
    const winner = pickWinner(sim);
    sim.event.score.push(`Result: ${winner}`);
    await write(sim);
    const ids = marketIds(sim.event.eventId);
    const results: MarketClose[] = [
      { marketId: ids.odds, result: winner },
      { marketId: ids.bookmaker, result: winner },
      ...(sim.event.sport === 0
        ? FANCY_LINES.map((line) => ({ marketId: ids.fancy(line.overs), result: String(sim.runsAt.get(line.overs) ?? sim.runs) }))
        : []),
    ];
    for (const { marketId, result } of results) await store.closeMarket(marketId, result);
    live.delete(sim.event.eventId);
    return results;
  }

  function pickWinner(sim: SimEvent): string {
    let draw = random();
    for (const [i, chance] of sim.chances.entries()) {
      draw -= chance;
      if (draw < 0) return sim.runners[i]!;
    }
    return sim.runners[sim.runners.length - 1]!;
  }

  /** Fills each sport up to EVENTS_PER_SPORT open events, the first in play, and writes them. */
  async function fill(): Promise<void> {
    for (const sport of SPORT_CODES) {
      const open = [...live.values()].filter((sim) => sim.event.sport === sport);
      for (let i = open.length; i < EVENTS_PER_SPORT; i++) {
        const sim = newEvent(sport, !open.some((other) => other.event.inplay) && i === open.length);
        live.set(sim.event.eventId, sim);
        open.push(sim);
        await write(sim);
      }
    }
  }

  /** One step of the whole feed: every event in play advances, waiting ones start when due. */
  async function tick(): Promise<void> {
    for (const sim of [...live.values()]) {
      if (!sim.event.inplay && sim.event.startTime.getTime() <= now()) sim.event.inplay = true;
      if (sim.event.inplay) await advance(sim);
    }
    const sports = new Set([...live.values()].filter((sim) => sim.event.inplay).map((sim) => sim.event.sport));
    for (const sim of live.values()) {
      if (!sports.has(sim.event.sport)) {
        sim.event.inplay = true;
        sports.add(sim.event.sport);
      }
    }
    await fill();
  }

  /**
   * Plays one event to its end now, as its remaining ticks would (tests and demos drive the feed
   * with it): its markets close with results, and the next event replaces it. Unknown: [].
   */
  async function finish(eventId: string): Promise<MarketClose[]> {
    const sim = live.get(eventId);
    if (!sim) return [];
    sim.event.inplay = true;
    let results: MarketClose[] | undefined;
    while (!results) results = await advance(sim);
    await fill();
    return results;
  }

  const feed: SportsFeed & {
    init(): Promise<void>;
    tick(): Promise<void>;
    finish(eventId: string): Promise<MarketClose[]>;
    events(): FeedEvent[];
    markets(): FeedMarket[];
  } = {
    init: fill,
    tick,
    finish,
    /** The simulator's current events and markets (the seed bets against them). */
    events: () => [...live.values()].map((sim) => sim.event),
    markets: () => [...live.values()].flatMap(marketsOf),
    async start() {
      await fill();
      timer = setInterval(() => {
        // A tick still writing skips the next one rather than piling up.
        running ??= tick().finally(() => (running = undefined));
      }, tickMs);
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
  return feed;
}

export type FeedSimulator = ReturnType<typeof createFeedSimulator>;
