/**
 * The one table of the admin and sports APIs' calls (docs/product.md §7.2, docs/protocol.md "Spec calls and extensions"). Each call holds its
 * method and path (the spec's spellings, written once here), the API that serves it by default,
 * its query parameters, the request and answer types, and whether the call, each query parameter,
 * each extra body field and each extra answer field is the spec's or an extension. An operator's
 * API is promised the `spec` part only; the console derives its routing from this table
 * (app/lib/api-routes.server.ts), the platform registers its routes at these paths and its
 * `PLATFORM_PROFILE=spec` answers only the `spec` part (platform/plugins/profile.ts).
 */
import type {
  AccountListQuery,
  AccountPage,
  AdminRecord,
  BankSettings,
  BetKind,
  BonusLimits,
  BonusSetting,
  CasinoBet,
  ClosedMarket,
  ContactSetting,
  Coupon,
  DepositDecision,
  DepositRow,
  GameBet,
  GameFlag,
  LoginLog,
  MarketBets,
  MarketGreen,
  NewSliderImage,
  NewStaff,
  Page,
  PartnerRole,
  PartnerRow,
  PermissionMap,
  PendingTotals,
  PermissionSettings,
  ReportSubjectType,
  ReportV1,
  ReportV2,
  SettledBet,
  SettlementCode,
  SliderImage,
  SportName,
  SportsBet,
  SportsEvent,
  StaffRow,
  TransactionRow,
  TransferResult,
  UserProfit,
  UserRow,
  WithdrawDecision,
  WithdrawRow,
} from "./wire.js";
import { REALTIME_EVENTS } from "./wire.js";

/** `spec`: docs/product.md §7.2 names it, every operator's API has it. `extension`: only APIs that chose to add it. */
export type Mark = "spec" | "extension";
export type ApiName = "admin" | "sports";

type ReportQuery = { from: string; to: string; user?: string; type?: ReportSubjectType; username?: string };
type PendingBetsQuery = { eventId?: string; marketId?: string; user?: string; sport?: SportName; page?: number; pageSize?: number; totals?: 1 };
type BetHistoryQuery = { user: string; username?: string; type: BetKind; from?: string; to?: string; page?: number; pageSize?: number };
type TransactionQuery = {
  user: string;
  role: "user" | "partner";
  username?: string;
  type: "deposits" | "withdraws";
  page: number;
  pageSize?: number;
};
/** docs/product.md §4: the whole bet travels; the platform trusts only its `_id`. */
type Settlement = { bet: SportsBet; status: SettlementCode };
type RequestListQuery = { status: number; page?: number; pageSize?: number; orderBy?: "createdAt" | "amount"; isAcc?: boolean; search?: string };
type AccountRef = { user: string; isPartner: boolean };
/** `requestId` (extension): the idempotency key; a resend with the same key moves the money once. */
type Transfer = AccountRef & { amount: number; remark?: string; requestId: string };

type FieldOf<T> = Extract<keyof T, string>;

export type Call<Request = unknown, Answer = unknown> = {
  method: "GET" | "POST";
  /** `:name` segments are filled from the request; `./` means the admin API root (docs/product.md §7.1). */
  path: string;
  /** The API that serves the call unless `API_ROUTING` moves it. */
  api: ApiName;
  mark: Mark;
  /** Every query parameter the call takes (GET), each marked. */
  query: Readonly<Partial<Record<FieldOf<Request>, Mark>>>;
  /** Body fields beyond the spec's (POST). */
  bodyExtensions: readonly FieldOf<Request>[];
  /** Answer fields beyond the spec's. */
  answerExtensions: readonly FieldOf<Answer>[];
  /** Phantom fields that carry the types; never read at run time. */
  request?: Request;
  answer?: Answer;
};

type Options<Request, Answer> = Partial<Pick<Call<Request, Answer>, "api" | "mark" | "query" | "bodyExtensions" | "answerExtensions">>;

const call =
  (method: Call["method"]) =>
  <Request = void, Answer = unknown>(path: string, options: Options<Request, Answer> = {}): Call<Request, Answer> => ({
    method,
    path,
    api: options.api ?? "admin",
    mark: options.mark ?? "spec",
    query: options.query ?? ({} as Call<Request, Answer>["query"]),
    bodyExtensions: options.bodyExtensions ?? [],
    answerExtensions: options.answerExtensions ?? [],
  });
const get = call("GET");
const post = call("POST");

// Query parameters several calls share (docs/product.md §7.2 "same query").
const ACCOUNT_QUERY = { username: "spec", page: "spec", orderBy: "spec", isAcc: "spec", partner: "spec", pageSize: "extension" } as const;
/** The lists also look accounts up by exact username or id (extension): a bulk file's preview. */
const ACCOUNT_LIST_QUERY = { ...ACCOUNT_QUERY, usernames: "extension", ids: "extension" } as const;
const REPORT_QUERY = { user: "spec", type: "spec", username: "spec", from: "spec", to: "spec" } as const;
// The spec names from, to, page, type and user; the console adds the username for its title.
const BET_HISTORY_QUERY = { from: "spec", to: "spec", page: "spec", type: "spec", user: "spec", username: "extension", pageSize: "extension" } as const;
const REQUEST_LIST_QUERY = { page: "spec", orderBy: "spec", isAcc: "spec", pageSize: "extension", search: "extension" } as const;

export const CALLS = {
  login: post<{ username: string; password: string }, { token: string }>("/login"),
  /** Ends the session on the server too; without it the console only forgets the token. */
  logout: post<Record<string, never>, null>("/logout", { mark: "extension" }),
  currentAdmin: get<void, AdminRecord>("/b2c/admin"),
  isLogouted: get<{ udid: string }, boolean>("/is-logouted/:udid"),
  changePassword: post<{ curPassword: string; password: string }>("/change-password"),
  permissions: get<void, Partial<Record<GameFlag, boolean>>>("/permissions"),
  partnerRoles: get<void, PartnerRole[]>("/partner-roles"),
  /** A search counts its matches up to SEARCH_COUNT_LIMIT; past it `totalCapped` (extension) says "more". */
  users: get<AccountListQuery, AccountPage<UserRow>>("/users", { query: ACCOUNT_LIST_QUERY, answerExtensions: ["totalCapped"] }),
  partners: get<AccountListQuery, AccountPage<PartnerRow>>("/partners", { query: ACCOUNT_LIST_QUERY, answerExtensions: ["totalCapped"] }),
  defaultAdmin: get<void, PartnerRow[]>("/b2c/default-admin"),
  makeDefaultAdmin: get<{ id: string }>("/b2c/make-default-admin/:id"),
  /** Answers a file (CSV), not the envelope. `type` (extension) picks partners; the spec's query has none. */
  downloadUsers: get<AccountListQuery & { type: "users" | "partners" }, Response>("/download-users", {
    query: { ...ACCOUNT_QUERY, type: "extension" },
  }),
  addUser: post<{
    username: string;
    password: string;
    repeatPassword: string;
    mobNo?: string;
    isPartner: boolean;
    permissions: PermissionMap<GameFlag>;
    share: Partial<Record<GameFlag, number>>;
    role?: string;
  }>("/add-user"),
  userDeposit: post<Transfer, TransferResult>("/user-deposit", { bodyExtensions: ["requestId"] }),
  userWithdraw: post<Transfer, TransferResult>("/user-withdraw", { bodyExtensions: ["requestId"] }),
  changeUserPassword: post<AccountRef & { password: string }>("/change-user-password"),
  userPermissions: get<{ id: string }, PermissionSettings>("/user-permissions/:id"),
  partnerPermissions: get<{ id: string }, PermissionSettings>("/partner-permissions/:id"),
  changePermissions: post<AccountRef & { permissions: PermissionMap<GameFlag>; bet: boolean; login: boolean }>("/change-permissions"),
  /** The spec's call takes no query; `isPartner` (extension) says the id is a partner's. */
  loginLogs: get<{ userId: string; isPartner?: boolean }, LoginLog[]>("/login-logs/:userId", { query: { isPartner: "extension" } }),
  deposits: get<RequestListQuery, Page<DepositRow>>("/b2c/deposits/:status", { query: REQUEST_LIST_QUERY }),
  withdraws: get<RequestListQuery, Page<WithdrawRow>>("/b2c/withdraws/:status", { query: REQUEST_LIST_QUERY }),
  updateDeposit: post<DepositDecision>("/b2c/update-deposit"),
  updateWithdraw: post<WithdrawDecision>("/b2c/update-withdraw"),
  /** The largest bonus one deposit decision grants, shown beside the bonus inputs. */
  bonusLimits: get<void, BonusLimits>("/b2c/bonus-limits", { mark: "extension" }),
  updateBonusLimits: post<BonusLimits, BonusLimits>("/b2c/update-bonus-limits", { mark: "extension" }),
  transactions: get<TransactionQuery, Page<TransactionRow>>("/transaction", {
    query: { user: "spec", role: "spec", username: "spec", type: "spec", page: "spec", pageSize: "extension" },
  }),
  /** The spec leaves the report path open ("/b2c/{report path}", v2 the same without /b2c); these are the ones docs/protocol.md "Reports (platform)" names. */
  reportV1: get<ReportQuery, ReportV1>("/b2c/report", { query: REPORT_QUERY, answerExtensions: ["daily"] }),
  reportV2: get<ReportQuery, ReportV2>("/report", { query: REPORT_QUERY, answerExtensions: ["daily"] }),
  /** `totals=1` (extension) adds the filtered queue's `totals`, from the platform's kept counts. */
  pendingBets: get<PendingBetsQuery, Page<SportsBet> & { totals?: PendingTotals }>("/sports-pending-bets", {
    query: { page: "spec", pageSize: "extension", eventId: "extension", marketId: "extension", user: "extension", sport: "extension", totals: "extension" },
    answerExtensions: ["totals"],
  }),
  settleBet: post<Settlement, SportsBet>("/settel-bet"),
  /**
   * Up to SETTLE_BETS_MAX settlements in one call, each settled exactly once as its own
   * `/settel-bet` would be and answered the same (its `code` and `msg`), in order.
   */
  settleBets: post<{ settlements: Settlement[] }, { results: SettledBet[] }>("/settle-bets", { mark: "extension" }),
  /** Super admin only: reverses a settled bet and settles it again. */
  resettleBet: post<Settlement, SportsBet>("/resettle-bet", { mark: "extension" }),
  userBets: get<BetHistoryQuery, Page<SportsBet | CasinoBet | GameBet>>("/user-bets", { query: BET_HISTORY_QUERY }),
  /** Answers a file (CSV). */
  downloadBets: get<BetHistoryQuery, Response>("/download-bets", { query: BET_HISTORY_QUERY }),
  userProfit: get<{ id: string }, UserProfit>("/b2c/user-profit/:id"),
  /** A stored receipt image (`DepositRow.image`): a file. The spec names the path, not a call serving it. */
  upload: get<{ name: string }, Response>("/uploads/:name", { mark: "extension" }),
  // Site settings (docs/product.md §2.12).
  bankDetails: get<void, BankSettings>("/b2c/bank-details"),
  updateBankDetails: post<BankSettings>("/b2c/update-bank-deatils"),
  /** The same update under the corrected spelling. */
  updateBankDetailsCorrected: post<BankSettings>("/b2c/update-bank-details", { mark: "extension" }),
  whatsapp: get<void, ContactSetting>("/b2c/whatsapp"),
  updateWhatsapp: post<ContactSetting>("/b2c/update-whatsapp"),
  telegram: get<void, ContactSetting>("/b2c/telegram"),
  updateTelegram: post<ContactSetting>("/b2c/update-telegram"),
  bonus: get<void, BonusSetting>("/b2c/bonus"),
  updateBonus: post<BonusSetting>("/b2c/update-bonus"),
  mainBonus: get<void, BonusSetting>("/b2c/main-bonus"),
  updateMainBonus: post<BonusSetting>("/b2c/update-main-bonus"),
  refBonus: get<void, BonusSetting>("/b2c/ref-bonus"),
  updateRefBonus: post<BonusSetting>("/b2c/update-ref-bonus"),
  coupons: get<void, Coupon[]>("/b2c/coupons"),
  addCoupon: post<{ couponCode: string; bonus: number }, { _id: string }>("/b2c/add-coupon"),
  slider: get<void, SliderImage[]>("/b2c/slider"),
  addSlider: post<{ images: NewSliderImage[] }>("/b2c/add-slider"),
  removeSlider: get<{ id: string }>("/b2c/remove-slider/:id", { mark: "extension" }),
  /** A slider image (`SliderImage.image` is `/slider-images/<name>`): a file. */
  sliderImage: get<{ name: string }, Response>("/slider-images/:name", { mark: "extension" }),
  // Staff (docs/product.md §2.12 Admin Management): role 1 only.
  admins: get<void, StaffRow[]>("/b2c/admins"),
  addAdmin: post<NewStaff, { _id: string }>("/b2c/add-admin"),
  removeAdmin: get<{ id: string }>("/b2c/remove-admin/:id"),
  // Sports data: the sports API by default.
  matches: get<{ sport: SportName }, SportsEvent[]>("/matches/:sport", { api: "sports" }),
  marketGreen: post<{ eventIds: string[] }, MarketGreen>("/market-green", { api: "sports" }),
  /** `usersLimit` lists only the first users by username, `usersTotal` counts them all (an event may hold 200,000). */
  marketBets: get<{ eventId: string; sport: SportName; client?: string; usersLimit?: number }, MarketBets>("/market-bets", {
    api: "sports",
    query: { eventId: "spec", sport: "spec", client: "spec", usersLimit: "extension" },
    answerExtensions: ["usersTotal"],
  }),
  /**
   * Closed markets with pending bets and the feed's result, oldest closing first (the settlement
   * workspace); `since` an ISO date-time of the close. An extension whole, its query included.
   */
  marketResults: get<{ page?: number; pageSize?: number; sport?: SportName; since?: string }, Page<ClosedMarket>>("/market-results", {
    api: "sports",
    mark: "extension",
  }),
  scorecard: get<{ eventId: string; sport: SportName }, { url: string }>("/scorecard/:eventId", { api: "sports", query: { sport: "spec" } }),
};

export type CallName = keyof typeof CALLS;
/** A call read without its types: for code that walks the table. */
export type CallEntry = Omit<Call, "query" | "bodyExtensions" | "answerExtensions" | "request" | "answer"> & {
  name: CallName;
  query: Readonly<Partial<Record<string, Mark>>>;
  bodyExtensions: readonly string[];
  answerExtensions: readonly string[];
};
export const CALL_LIST: readonly CallEntry[] = Object.entries(CALLS).map(([name, entry]) => ({ ...entry, name: name as CallName }));
export type RequestOf<K extends CallName> = Exclude<(typeof CALLS)[K]["request"], undefined>;
export type AnswerOf<K extends CallName> = Exclude<(typeof CALLS)[K]["answer"], undefined>;

export type RealtimeEvent = (typeof REALTIME_EVENTS)[keyof typeof REALTIME_EVENTS];
/** The realtime events (docs/product.md §7.3 names the first two). */
export const REALTIME_MARKS: Record<RealtimeEvent, Mark> = {
  [REALTIME_EVENTS.newDeposit]: "spec",
  [REALTIME_EVENTS.newWithdraw]: "spec",
  [REALTIME_EVENTS.marketUpdate]: "extension",
  [REALTIME_EVENTS.betSettled]: "extension",
};
