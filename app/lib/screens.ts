/**
 * The one table of screens. Each row drives the sidebar link, the `g` letter command, the page
 * title and the guard that shows Permission Denied, so a new screen is one row here (plus its
 * route). Rows exist only for screens whose route exists.
 */
import type { Operator } from "./operator";
import type { PageHandle } from "./page";
import { ROLE, type STAFF_FLAGS } from "../../protocol/wire";

/** Which keyed commands a screen adds to the global ones (app/commands/<desk>.ts declares them). */
export type ScreenScope = "list" | "search" | "accounts" | "requests" | "markets";

type StaffFlag = (typeof STAFF_FLAGS)[number];

export type Screen = {
  /** Route path; a screen also owns the addresses below it (`/users/:panel`). */
  path: string;
  /** Sidebar text, page title and `Go to …` title (spec §2.3: exactly these words). */
  label: string;
  /** `g` then this letter goes there; absent for screens reached only from another screen. */
  letter?: string;
  /** Extra words the palette's `Go to …` matches. */
  keywords?: readonly string[];
  /** The flag role 2 (staff) needs to open it; role 1 and partners have every screen by their role. */
  staffFlag?: StaffFlag;
  /** Position among the sidebar's links (spec §2.3); absent: not in the sidebar. */
  sidebar?: number;
  scopes?: readonly ScreenScope[];
};

const ACCOUNT_DESK = ["list", "search", "accounts"] as const;
const REQUEST_DESK = ["list", "requests"] as const;

export const SCREENS = {
  home: { path: "/", label: "Home", letter: "h", keywords: ["start", "dashboard"] },
  users: { path: "/users", label: "Users", letter: "u", sidebar: 3, staffFlag: "users", scopes: ACCOUNT_DESK, keywords: ["accounts", "players", "clients"] },
  partners: { path: "/partners", label: "Panels", letter: "p", sidebar: 4, staffFlag: "users", scopes: ACCOUNT_DESK, keywords: ["partners", "agents", "masters"] },
  deposits: { path: "/deposits", label: "Deposits", letter: "d", sidebar: 5, staffFlag: "deposits", scopes: REQUEST_DESK, keywords: ["requests", "approve", "pending"] },
  withdraws: { path: "/withdraws", label: "Withdrawals", letter: "w", sidebar: 6, staffFlag: "withdraws", scopes: REQUEST_DESK, keywords: ["withdraws", "payouts", "requests"] },
  transactions: { path: "/transactions", label: "Transactions", scopes: ["list"] },
  // The list and, below it, an event's detail (app/commands/markets.ts).
  markets: { path: "/market-analysis", label: "Market Analysis", letter: "m", sidebar: 13, staffFlag: "bets", scopes: ["list", "markets"], keywords: ["events", "book", "exposure", "live"] },
  "change-password": { path: "/change-password", label: "Change Password", letter: "c", sidebar: 15, keywords: ["password", "account"] },
} as const satisfies Record<string, Screen>;

export type ScreenId = keyof typeof SCREENS;

/**
 * Spec §2.3 links whose screens are not built yet: they lead to the not-found page. Each moves
 * into SCREENS, with its position, when its route exists.
 */
export const UNBUILT_SIDEBAR_LINKS: ReadonlyArray<{ label: string; path: string; sidebar: number }> = [
  { label: "Report V1", path: "/report-v1", sidebar: 1 },
  { label: "Report V2", path: "/report-v2", sidebar: 2 },
  { label: "Bank Details", path: "/bank-details", sidebar: 7 },
  { label: "Whatsapp Number", path: "/whatsapp-number", sidebar: 8 },
  { label: "Slider", path: "/slider", sidebar: 9 },
  { label: "Main Bonus", path: "/main-bonus", sidebar: 10 },
  { label: "Bonus", path: "/bonus", sidebar: 11 },
  { label: "Refer Bonus", path: "/ref-bonus", sidebar: 12 },
  { label: "Pending Sport Bets", path: "/pending-sport-bets", sidebar: 14 },
];

const SCREEN_LIST: ReadonlyArray<Screen & { id: ScreenId }> = Object.entries(SCREENS).map(([id, screen]) => ({
  id: id as ScreenId,
  ...screen,
}));

/** The sidebar's links in the spec's order. */
export const SIDEBAR_LINKS: ReadonlyArray<{ label: string; path: string }> = [
  ...SCREEN_LIST.filter((screen) => screen.sidebar !== undefined),
  ...UNBUILT_SIDEBAR_LINKS,
]
  .sort((a, b) => a.sidebar! - b.sidebar!)
  .map(({ label, path }) => ({ label, path }));

/** Screens with a `g` letter, in table order, for the `Go to …` commands. */
export const LETTERED_SCREENS = SCREEN_LIST.filter(
  (screen): screen is Screen & { id: ScreenId; letter: string } => screen.letter !== undefined,
);

/** The screen an address shows, or undefined (the not-found page). */
export function screenAt(pathname: string): (Screen & { id: ScreenId }) | undefined {
  return SCREEN_LIST.find((screen) =>
    screen.path === "/" ? pathname === "/" : pathname === screen.path || pathname.startsWith(`${screen.path}/`),
  );
}

/** Whether the operator may open the screen; the platform checks every call again. */
export const mayOpen = (screen: Screen, operator: Operator): boolean =>
  !screen.staffFlag || operator.role !== ROLE.staff || Boolean(operator.flags[screen.staffFlag]);

/** The route module's `handle`: its title comes from the table. */
export const screenHandle = (id: ScreenId): PageHandle => ({ title: SCREENS[id].label });
