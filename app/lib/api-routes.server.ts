/**
 * The one table of upstream calls: which API serves each, with what method and path, and the
 * request and answer types. An operator moves a call between the admin and the sports API with
 * `API_ROUTING=name=sports,other=admin` without touching code.
 */
import type {
  AccountListQuery,
  AdminRecord,
  BankSettings,
  BetKind,
  BonusLimits,
  BonusSetting,
  CasinoBet,
  ContactSetting,
  Coupon,
  DepositDecision,
  DepositRow,
  GameBet,
  GameFlag,
  LoginLog,
  MarketBets,
  MarketGreen,
  Page,
  PermissionMap,
  PermissionSettings,
  TransactionRow,
  PartnerRole,
  PartnerRow,
  NewSliderImage,
  NewStaff,
  SliderImage,
  StaffRow,
  ReportSubjectType,
  ReportV1,
  ReportV2,
  SettlementCode,
  SportName,
  SportsBet,
  SportsEvent,
  TransferResult,
  UserProfit,
  UserRow,
  WithdrawDecision,
  WithdrawRow,
} from "../../protocol/wire";
import type { AccountMode } from "./account-list";

type ReportQuery = { from: string; to: string; user?: string; type?: ReportSubjectType; username?: string };
type PendingBetsQuery = { eventId?: string; marketId?: string; user?: string; sport?: SportName; page?: number; pageSize?: number };
type BetHistoryQuery = { user: string; username?: string; type: BetKind; from?: string; to?: string; page?: number; pageSize?: number };
/** Spec §4: the whole bet travels; the platform trusts only its `_id`. */
type Settlement = { bet: SportsBet; status: SettlementCode };

type RequestListQuery = { status: number; page?: number; pageSize?: number; search?: string };

type AccountRef = { user: string; isPartner: boolean };
type Transfer = AccountRef & { amount: number; remark?: string; requestId: string };

export type ApiName = "admin" | "sports";

type Route<Request, Answer> = {
  method: "GET" | "POST";
  /** `:name` segments are filled from the request; `./` means the admin API root (spec §7.1). */
  path: string;
  api: ApiName;
  /** Phantom fields that carry the types; never read at run time. */
  request?: Request;
  answer?: Answer;
};

const get = <Request = void, Answer = unknown>(path: string, api: ApiName = "admin"): Route<Request, Answer> => ({
  method: "GET",
  path,
  api,
});
const post = <Request, Answer = unknown>(path: string, api: ApiName = "admin"): Route<Request, Answer> => ({
  method: "POST",
  path,
  api,
});

export const API_ROUTES = {
  login: post<{ username: string; password: string }, { token: string }>("/login"),
  logout: post<Record<string, never>, null>("/logout"),
  currentAdmin: get<void, AdminRecord>("/b2c/admin"),
  isLogouted: get<{ udid: string }, boolean>("/is-logouted/:udid"),
  changePassword: post<{ curPassword: string; password: string }>("/change-password"),
  permissions: get<void, Partial<Record<GameFlag, boolean>>>("/permissions"),
  partnerRoles: get<void, PartnerRole[]>("/partner-roles"),
  users: get<AccountListQuery, Page<UserRow>>("/users"),
  partners: get<AccountListQuery, Page<PartnerRow>>("/partners"),
  defaultAdmin: get<void, PartnerRow[]>("/b2c/default-admin"),
  makeDefaultAdmin: get<{ id: string }>("/b2c/make-default-admin/:id"),
  /** Answers a file (CSV), not the envelope: use `downloadFromApi`. */
  downloadUsers: get<AccountListQuery & { type: AccountMode }, Response>("/download-users"),
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
  userDeposit: post<Transfer, TransferResult>("/user-deposit"),
  userWithdraw: post<Transfer, TransferResult>("/user-withdraw"),
  changeUserPassword: post<AccountRef & { password: string }>("/change-user-password"),
  userPermissions: get<{ id: string }, PermissionSettings>("/user-permissions/:id"),
  partnerPermissions: get<{ id: string }, PermissionSettings>("/partner-permissions/:id"),
  changePermissions: post<AccountRef & { permissions: PermissionMap<GameFlag>; bet: boolean; login: boolean }>(
    "/change-permissions",
  ),
  loginLogs: get<{ userId: string; isPartner?: boolean }, LoginLog[]>("/login-logs/:userId"),
  deposits: get<RequestListQuery, Page<DepositRow>>("/b2c/deposits/:status"),
  withdraws: get<RequestListQuery, Page<WithdrawRow>>("/b2c/withdraws/:status"),
  updateDeposit: post<DepositDecision>("/b2c/update-deposit"),
  /** Extension (issue 7): the settings' bonus limits, shown beside the bonus inputs. */
  bonusLimits: get<void, BonusLimits>("/b2c/bonus-limits"),
  updateWithdraw: post<WithdrawDecision>("/b2c/update-withdraw"),
  transactions: get<
    { user: string; role: "user" | "partner"; username?: string; type: "deposits" | "withdraws"; page: number },
    Page<TransactionRow>
  >("/transaction"),
  /** Reports; `daily` in both answers is an extension (the screen's chart). */
  reportV1: get<ReportQuery, ReportV1>("/b2c/report"),
  reportV2: get<ReportQuery, ReportV2>("/report"),
  pendingBets: get<PendingBetsQuery, Page<SportsBet>>("/sports-pending-bets"),
  settleBet: post<Settlement, unknown>("/settel-bet"),
  /** Super admin only. */
  resettleBet: post<Settlement, unknown>("/resettle-bet"),
  userBets: get<BetHistoryQuery, Page<SportsBet | CasinoBet | GameBet>>("/user-bets"),
  /** Answers a file (CSV): use `downloadFromApi`. */
  downloadBets: get<BetHistoryQuery, Response>("/download-bets"),
  userProfit: get<{ id: string }, UserProfit>("/b2c/user-profit/:id"),
  /** A stored receipt image: a file, use `downloadFromApi`. */
  upload: get<{ name: string }, Response>("/uploads/:name"),
  // Site settings (spec §2.12, §7.2).
  bankDetails: get<void, BankSettings>("/b2c/bank-details"),
  updateBankDetails: post<BankSettings>("/b2c/update-bank-deatils"),
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
  updateBonusLimits: post<BonusLimits, BonusLimits>("/b2c/update-bonus-limits"),
  coupons: get<void, Coupon[]>("/b2c/coupons"),
  addCoupon: post<{ couponCode: string; bonus: number }, { _id: string }>("/b2c/add-coupon"),
  slider: get<void, SliderImage[]>("/b2c/slider"),
  addSlider: post<{ images: NewSliderImage[] }>("/b2c/add-slider"),
  removeSlider: get<{ id: string }>("/b2c/remove-slider/:id"),
  /** A slider image (`SliderImage.image` is `/slider-images/<name>`): a file, use `downloadFromApi`. */
  sliderImage: get<{ name: string }, Response>("/slider-images/:name"),
  // Staff (spec §2.12 Admin Management): role 1 only.
  admins: get<void, StaffRow[]>("/b2c/admins"),
  addAdmin: post<NewStaff, { _id: string }>("/b2c/add-admin"),
  removeAdmin: get<{ id: string }>("/b2c/remove-admin/:id"),
  // The sports data calls (spec §7.2): the sports API by default.
  matches: get<{ sport: SportName }, SportsEvent[]>("/matches/:sport", "sports"),
  marketGreen: post<{ eventIds: string[] }, MarketGreen>("/market-green", "sports"),
  marketBets: get<{ eventId: string; sport: SportName; client?: string }, MarketBets>("/market-bets", "sports"),
  scorecard: get<{ eventId: string; sport: SportName }, { url: string }>("/scorecard/:eventId", "sports"),
} satisfies Record<string, Route<unknown, unknown>>;

export type CallName = keyof typeof API_ROUTES;
export type RequestOf<K extends CallName> = Exclude<(typeof API_ROUTES)[K]["request"], undefined>;
export type AnswerOf<K extends CallName> = Exclude<(typeof API_ROUTES)[K]["answer"], undefined>;

/** Parses `API_ROUTING` into per-call overrides; unknown names and APIs are configuration errors. */
export function parseRouting(text: string): Partial<Record<CallName, ApiName>> {
  const overrides: Partial<Record<CallName, ApiName>> = {};
  for (const entry of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [name, api] = entry.split("=").map((s) => s.trim());
    if (!name || !(name in API_ROUTES)) throw new Error(`API_ROUTING names an unknown call: ${entry}`);
    if (api !== "admin" && api !== "sports") throw new Error(`API_ROUTING must say admin or sports: ${entry}`);
    overrides[name as CallName] = api;
  }
  return overrides;
}

/** Builds the absolute URL of a call from the bases, the route and the request's path params. */
export function resolveUrl(
  bases: Record<ApiName, string>,
  api: ApiName,
  path: string,
  params: Record<string, unknown> = {},
): { url: URL; consumed: Set<string> } {
  const consumed = new Set<string>();
  const filled = path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === null || value === "") throw new Error(`Missing path parameter ${key}`);
    consumed.add(key);
    return encodeURIComponent(String(value));
  });
  const base = bases[api].replace(/\/+$/, "");
  // Spec §7.1: a path beginning with ./ goes to the admin API root with the admin segment removed.
  const absolute = filled.startsWith("./") ? `${base.replace(/\/[^/]*$/, "")}${filled.slice(1)}` : `${base}${filled}`;
  return { url: new URL(absolute), consumed };
}
