/**
 * The one table of screens. Each row drives the sidebar link, the `g` letter command, the page
 * title and the guard that shows Permission Denied, so a new screen is one row here (plus its
 * route). Rows exist only for screens whose route exists.
 */
import type { Operator } from "./operator";
import type { PageHandle } from "./page";
import type { CallName } from "../../protocol/calls";
import { ROLE, type STAFF_FLAGS } from "../../protocol/wire";

/** Which keyed commands a screen adds to the global ones (app/commands/<desk>.ts declares them). */
export type ScreenScope = "list" | "search" | "accounts" | "requests" | "bets" | "bet-history" | "markets" | "reports" | "settlement" | "late-bets" | "approvals" | "jobs" | "home" | "sessions";

type StaffFlag = (typeof STAFF_FLAGS)[number];

/**
 * Who may use a screen or a command, as the platform decides it for the calls behind them. Role 1
 * may use everything; staff need `staffFlag`; partners have their own accounts' desks by their role.
 */
export type Access = {
  /** The flag role 2 (staff) needs. */
  staffFlag?: StaffFlag;
  /** `all` (default): partners too; `house`: role 1 and flagged staff; `superAdmin`: role 1 only. */
  audience?: "all" | "house" | "superAdmin";
};

export type Screen = Access & {
  /** Route path; a screen also owns the addresses below it (`/users/:panel`). */
  path: string;
  /** Sidebar text, page title and `Go to …` title (docs/product.md §2.3: exactly these words). */
  label: string;
  /** `g` then this letter goes there; absent for screens reached only from another screen. */
  letter?: string;
  /** Extra words the palette's `Go to …` matches. */
  keywords?: readonly string[];
  /** Position among the sidebar's links (docs/product.md §2.3); absent: not in the sidebar. */
  sidebar?: number;
  scopes?: readonly ScreenScope[];
  /** The extension call the screen reads (protocol/calls.ts): its `Go to …` and commands need it too. */
  extension?: CallName;
  /**
   * Its data is read ahead at the operator's first idle moment in the shell (issue 35): a desk a
   * shift opens soon, whose read is light and shows nothing the API records as shown. `true`: for
   * every operator; `withoutPasswords` (the account lists): for every operator but the super admin,
   * whose pages of them carry passwords, which the API audits as revealed (readsAhead). The
   * lettered screens' code loads then for everyone (app/lib/route-code.ts).
   */
  readAhead?: true | "withoutPasswords";
};

const ACCOUNT_DESK = ["list", "search", "accounts"] as const;
const REQUEST_DESK = ["list", "requests"] as const;
/** Site settings are the house's: role 1 or staff with `settings`, never partners (docs/product.md §2.12). */
const SETTINGS = { staffFlag: "settings", audience: "house" } as const;

export const SCREENS = {
  home: { path: "/", label: "Home", letter: "h", scopes: ["home"], keywords: ["start", "dashboard"] },
  "report-v1": { path: "/report-v1", label: "Report V1", letter: "r", sidebar: 1, staffFlag: "report", scopes: ["reports"], keywords: ["profit", "loss", "pnl"] },
  "report-v2": { path: "/report-v2", label: "Report V2", letter: "R", sidebar: 2, staffFlag: "report", scopes: ["reports"], keywords: ["profit", "loss", "share", "pnl"] },
  users: { path: "/users", label: "Users", letter: "u", sidebar: 3, staffFlag: "users", scopes: ACCOUNT_DESK, readAhead: "withoutPasswords", keywords: ["accounts", "players", "clients"] },
  partners: { path: "/partners", label: "Panels", letter: "p", sidebar: 4, staffFlag: "users", scopes: ACCOUNT_DESK, readAhead: "withoutPasswords", keywords: ["partners", "agents", "masters"] },
  deposits: { path: "/deposits", label: "Deposits", letter: "d", sidebar: 5, staffFlag: "deposits", scopes: REQUEST_DESK, readAhead: true, keywords: ["requests", "approve", "pending"] },
  withdraws: { path: "/withdraws", label: "Withdrawals", letter: "w", sidebar: 6, staffFlag: "withdraws", scopes: REQUEST_DESK, readAhead: true, keywords: ["withdraws", "payouts", "requests"] },
  transactions: { path: "/transactions", label: "Transactions", scopes: ["list"] },
  // The list and, below it, an event's detail (app/commands/markets.ts).
  markets: { path: "/market-analysis", label: "Market Analysis", letter: "m", sidebar: 13, staffFlag: "bets", scopes: ["list", "markets"], keywords: ["events", "book", "exposure", "live"] },
  "pending-sport-bets": { path: "/pending-sport-bets", label: "Pending Sport Bets", letter: "b", sidebar: 14, staffFlag: "bets", audience: "house", scopes: ["list", "search", "bets", "late-bets"], readAhead: true, keywords: ["settle", "settlement", "bets", "queue"] },
  // The markets awaiting settlement with the feed's result (issue 18); without /market-results it lists the queue's markets.
  settlement: { path: "/settlement", label: "Settlement", letter: "S", staffFlag: "bets", audience: "house", scopes: ["list", "settlement", "late-bets"], keywords: ["results", "closed markets", "settle", "workspace"] },
  "user-bets": { path: "/users/bets", label: "Bet History", staffFlag: "bets", scopes: ["list", "bet-history"], keywords: ["bets", "history", "casino", "games"] },
  "bank-details": { path: "/bank-details", label: "Bank Details", letter: "k", sidebar: 7, ...SETTINGS, keywords: ["upi", "ifsc", "usdt", "settings"] },
  "whatsapp-number": { path: "/whatsapp-number", label: "Whatsapp Number", letter: "n", sidebar: 8, ...SETTINGS, keywords: ["contact", "settings"] },
  telegram: { path: "/telegram", label: "Telegram", letter: "t", ...SETTINGS, keywords: ["contact", "link", "settings"] },
  slider: { path: "/slider", label: "Slider", letter: "l", sidebar: 9, ...SETTINGS, keywords: ["images", "banner", "settings"] },
  "main-bonus": { path: "/main-bonus", label: "Main Bonus", letter: "M", sidebar: 10, ...SETTINGS, keywords: ["settings"] },
  bonus: { path: "/bonus", label: "Bonus", letter: "o", sidebar: 11, ...SETTINGS, keywords: ["settings"] },
  "ref-bonus": { path: "/ref-bonus", label: "Refer Bonus", letter: "f", sidebar: 12, ...SETTINGS, keywords: ["referral", "settings"] },
  coupons: { path: "/coupons", label: "Coupons", letter: "C", ...SETTINGS, keywords: ["codes", "promotion", "settings"] },
  "bonus-limits": { path: "/bonus-limits", label: "Bonus Limits", letter: "L", ...SETTINGS, extension: "bonusLimits", keywords: ["ceiling", "maximum", "settings"] },
  // The console's own record of every change made through it (ADR 0009).
  audit: { path: "/audit", label: "Audit Trail", letter: "A", staffFlag: "report", audience: "house", scopes: ["list"], keywords: ["log", "history", "who did what", "trail"] },
  // Four-eyes (issue 19): held actions a second operator approves (each row to whoever may make its call), the super admin's thresholds.
  approvals: { path: "/approvals", label: "Approvals", letter: "E", audience: "house", scopes: ["list", "approvals"], keywords: ["four-eyes", "maker checker", "pending approval", "thresholds", "controls"] },
  // Bulk and settlement jobs left unfinished by a reload or a restart (issue 19): run by role 1 and `bets` staff.
  jobs: { path: "/jobs", label: "Jobs", letter: "J", staffFlag: "bets", audience: "house", scopes: ["list", "jobs"], keywords: ["bulk", "resume", "unfinished", "interrupted", "settlement job"] },
  admins: { path: "/admins", label: "Admin Management", letter: "a", audience: "superAdmin", keywords: ["staff", "add staff"] },
  // The operator's open console sessions, everyone's for the super admin, and the address allowlist (issue 30, ADR 0010).
  sessions: { path: "/sessions", label: "Sessions", letter: "s", scopes: ["list", "sessions"], keywords: ["sign out", "signed in", "devices", "allowlist", "addresses", "security"] },
  // The operator's own second factor, and the super admin's policy (issue 30); reached from the palette.
  "second-factor": { path: "/second-factor", label: "Second Factor", keywords: ["2fa", "mfa", "authenticator", "passkey", "recovery codes", "security"] },
  "change-password": { path: "/change-password", label: "Change Password", letter: "c", sidebar: 15, keywords: ["password", "account"] },
} as const satisfies Record<string, Screen>;

export type ScreenId = keyof typeof SCREENS;

const SCREEN_LIST: ReadonlyArray<Screen & { id: ScreenId }> = Object.entries(SCREENS).map(([id, screen]) => ({
  id: id as ScreenId,
  ...screen,
}));

/** The sidebar's links in the spec's order. */
export const SIDEBAR_LINKS: ReadonlyArray<Access & { label: string; path: string }> = SCREEN_LIST.filter((screen) => screen.sidebar !== undefined)
  .sort((a, b) => a.sidebar! - b.sidebar!)
  .map(({ label, path, staffFlag, audience }) => ({ label, path, staffFlag, audience }));

/** Screens with a `g` letter, in table order, for the `Go to …` commands. */
export const LETTERED_SCREENS = SCREEN_LIST.filter(
  (screen): screen is Screen & { id: ScreenId; letter: string } => screen.letter !== undefined,
);

/** Longest path first, so `/users/bets` is its own screen, not one below `/users`. */
const MOST_SPECIFIC_FIRST = [...SCREEN_LIST].sort((a, b) => b.path.length - a.path.length);

/** The screen an address shows, or undefined (the not-found page). */
export function screenAt(pathname: string): (Screen & { id: ScreenId }) | undefined {
  return MOST_SPECIFIC_FIRST.find((screen) =>
    screen.path === "/" ? pathname === "/" : pathname === screen.path || pathname.startsWith(`${screen.path}/`),
  );
}

/**
 * Whether the operator may use a screen, link or command: the one rule the sidebar, the palette,
 * keys and buttons all read. The platform checks every call again.
 */
export function mayUse({ staffFlag, audience = "all" }: Access, operator: Operator): boolean {
  if (operator.role === ROLE.superAdmin) return true;
  if (audience === "superAdmin") return false;
  if (operator.role === ROLE.partner) return audience === "all";
  return !staffFlag || Boolean(operator.flags[staffFlag]);
}

/** The desk an account's actions belong to: Panels for a partner, Users for an end user. */
export const deskOfAccount = (account: { isPartner: boolean }): Access => (account.isPartner ? SCREENS.partners : SCREENS.users);

/** Whether the operator may open the screen (else Permission Denied). */
export const mayOpen: (screen: Screen, operator: Operator) => boolean = mayUse;

/** Whether the first idle moment reads `screen` ahead for `operator` (Screen's `readAhead`). */
export const readsAhead = (screen: Screen, operator: Operator): boolean =>
  screen.readAhead === true || (screen.readAhead === "withoutPasswords" && operator.role !== ROLE.superAdmin);

/** The route module's `handle`: its title comes from the table. */
export const screenHandle = (id: ScreenId): PageHandle => ({ title: SCREENS[id].label });
