/**
 * Home (issue 33): what needs the signed-in operator now, one line per source. The server reads
 * every source at once (home.server.ts) and sends what each answered or why it failed; this builds
 * the lines from that, in the browser and in tests alike. A source the operator may not see is
 * absent and has no line; one that failed shows its own line as unavailable; one the operator's
 * API cannot serve says plainly why it is unknown.
 */
import { HOME_JOB_STALLED_MS } from "./constants";
import { formatDateTime, formatMoney, profitSign } from "./format";
import type { ScreenId } from "./screens";

/** What one source answered, or why it could not. */
export type Settled<T> = { ok: true; value: T } | { ok: false; reason: string };

export type WaitingRequests = { count: number; total: number; oldest: string | null };
export type AwaitingSettlement = { markets: number; bets: number; stake: number; oldestClose: string | null } | { lacking: string };
export type FourEyesWaiting = { forYou: number; yours: number; on: boolean };
export type JobFigures = { unfinished: number; lastActivity: string[] };
export type RiskEvent = { label: string; worstCase: number };
export type RiskFigures = { worst: RiskEvent[]; unread: number };
export type TodayFigures = { profit: number; daily: { day: string; profit: number }[] | null };
export type ApiFigures = { answeredAt: string | null; silent: string[]; lacking: string[] };

/** Every source home reads; absent: not the operator's to see. */
export type HomeSources = {
  deposits?: Settled<WaitingRequests>;
  withdraws?: Settled<WaitingRequests>;
  settlement?: Settled<AwaitingSettlement>;
  approvals?: Settled<FourEyesWaiting>;
  jobs?: Settled<JobFigures>;
  risk?: Settled<RiskFigures>;
  today?: Settled<TodayFigures>;
  api?: ApiFigures;
};

export type Tone = "amber" | "red" | "profit" | "loss" | "dim";
export type LinePart = { text: string; tone?: Tone };
export type LineId = keyof HomeSources;

export type HomeLine = {
  id: LineId;
  label: string;
  /** Where Enter goes (its `g` key beside it); null: a line with no screen of its own. */
  screen: ScreenId | null;
  state: "ok" | "unavailable" | "unknown";
  parts: LinePart[];
  /** The last days' profit and loss, oldest first, for a sparkline. */
  sparkline?: number[];
};

export type AgeLimits = { amberMinutes: number; redMinutes: number };

/** `45s`, `7m`, `2h 05m`. */
export function formatAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

const ageTone = (ms: number, limits: AgeLimits): Tone | undefined =>
  ms >= limits.redMinutes * 60_000 ? "red" : ms >= limits.amberMinutes * 60_000 ? "amber" : undefined;

const signed = (amount: number): LinePart => ({
  text: `${amount > 0 ? "Profit" : amount < 0 ? "Loss" : "Even"} ${profitSign(amount)}${formatMoney(Math.abs(amount))}`,
  tone: amount > 0 ? "profit" : amount < 0 ? "loss" : "dim",
});

type Builders = { [Id in Exclude<LineId, "api">]: (value: NonNullable<HomeSources[Id]> extends Settled<infer T> ? T : never) => Omit<HomeLine, "id" | "label" | "screen" | "state"> };

function buildersFor(now: number, limits: AgeLimits): Builders {
  const requests = (value: WaitingRequests) => {
    if (value.count === 0 || value.oldest === null) return { parts: [{ text: "none waiting", tone: "dim" as const }] };
    const age = now - Date.parse(value.oldest);
    return { parts: [{ text: `${value.count} waiting` }, { text: `oldest ${formatAge(age)}`, tone: ageTone(age, limits) }, { text: `total ${formatMoney(value.total)}` }] };
  };
  return {
    deposits: requests,
    withdraws: requests,
    settlement: (value) => {
      if ("lacking" in value) return { parts: [{ text: `unknown: ${value.lacking}`, tone: "dim" }] };
      if (value.markets === 0) return { parts: [{ text: "no closed market waiting", tone: "dim" }] };
      return {
        parts: [
          { text: `${value.markets} ${value.markets === 1 ? "market" : "markets"}`, tone: "amber" },
          { text: `${value.bets} bets` },
          { text: `stake ${formatMoney(value.stake)}` },
          ...(value.oldestClose ? [{ text: `oldest closed ${formatDateTime(value.oldestClose)}` }] : []),
        ],
      };
    },
    approvals: (value) => ({
      parts: [
        { text: `${value.forYou} waiting for you`, tone: value.forYou > 0 ? "amber" : "dim" },
        { text: `${value.yours} of yours waiting for someone else`, tone: value.yours > 0 ? undefined : "dim" },
      ],
    }),
    jobs: (value) => {
      const stalled = value.lastActivity.filter((at) => now - Date.parse(at) >= HOME_JOB_STALLED_MS).length;
      return {
        parts: [
          { text: `${value.unfinished} unfinished of yours`, tone: value.unfinished > 0 ? "amber" : "dim" },
          { text: `${stalled} making no progress`, tone: stalled > 0 ? "red" : "dim" },
        ],
      };
    },
    risk: (value) => ({
      parts: [
        ...(value.worst.length === 0 ? [{ text: "no event loses in its worst case", tone: "dim" as const }] : []),
        ...value.worst.map((event) => ({ text: `${event.label} ${profitSign(event.worstCase)}${formatMoney(Math.abs(event.worstCase))}`, tone: event.worstCase < 0 ? ("loss" as const) : undefined })),
        ...(value.unread > 0 ? [{ text: `${value.unread} ${value.unread === 1 ? "event" : "events"} unread`, tone: "amber" as const }] : []),
      ],
    }),
    today: (value) => ({
      parts: [
        signed(value.profit),
        ...(value.daily ? [] : [{ text: "no sparkline: the API's reports lack the daily figures (an extension)", tone: "dim" as const }]),
      ],
      ...(value.daily && { sparkline: value.daily.map((point) => point.profit) }),
    }),
  };
}

/** Each line's words and screen, in the order home shows them. */
const LINES: ReadonlyArray<{ id: LineId; label: string; screen: ScreenId | null }> = [
  { id: "deposits", label: "Deposits waiting", screen: "deposits" },
  { id: "withdraws", label: "Withdrawals waiting", screen: "withdraws" },
  { id: "settlement", label: "Awaiting settlement", screen: "settlement" },
  { id: "approvals", label: "Four-eyes", screen: "approvals" },
  { id: "jobs", label: "Jobs", screen: "jobs" },
  { id: "risk", label: "Risk, worst cases", screen: "markets" },
  { id: "today", label: "Today", screen: "report-v1" },
  { id: "api", label: "The API", screen: null },
];

function apiLine(api: ApiFigures): Pick<HomeLine, "state" | "parts"> {
  const answered: LinePart = api.answeredAt ? { text: `last answer ${formatDateTime(api.answeredAt, true)}` } : { text: "no answer", tone: "red" };
  return {
    state: "ok",
    parts: [
      api.silent.length === 0 ? { text: "reachable", tone: "profit" } : { text: `no answer for ${api.silent.join(", ")}`, tone: "red" },
      answered,
      api.lacking.length === 0 ? { text: "lacks no extension seen so far", tone: "dim" } : { text: `lacks ${api.lacking.join(", ")}`, tone: "amber" },
    ],
  };
}

const isIdle = ({ on, forYou, yours }: FourEyesWaiting) => !on && forYou + yours === 0;

/** Home's lines from what its sources answered at `now` (the read's time, so server and browser agree). */
export function homeLines(sources: HomeSources, now: number, limits: AgeLimits): HomeLine[] {
  const builders = buildersFor(now, limits);
  return LINES.flatMap(({ id, label, screen }): HomeLine[] => {
    if (id === "api") return sources.api ? [{ id, label, screen, ...apiLine(sources.api) }] : [];
    const source = sources[id];
    if (!source) return [];
    if (!source.ok) return [{ id, label, screen, state: "unavailable", parts: [{ text: `unavailable: ${source.reason}`, tone: "red" }] }];
    // Four-eyes switched off with nothing held for or by the operator is nothing to do: no line.
    if (id === "approvals" && isIdle(source.value as FourEyesWaiting)) return [];
    const built = (builders[id] as (value: unknown) => Omit<HomeLine, "id" | "label" | "screen" | "state">)(source.value);
    const unknown = id === "settlement" && "lacking" in (source.value as AwaitingSettlement);
    return [{ id, label, screen, state: unknown ? "unknown" : "ok", ...built }];
  });
}
