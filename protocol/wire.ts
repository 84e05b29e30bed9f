/**
 * Wire-level types and codes of the admin and sports APIs (docs/protocol.md), the only code
 * besides the envelope codec that the console and the platform share.
 */

/** The response body of every call, success or failure. `data` is envelope text on success. */
export type WireResponse =
  | { status: "SUCCESS"; msg: string; data: string }
  | { status: "FAIL"; msg: string; data: null };

/** A POST body: the request, sealed. */
export type WireRequest = { payload: string };

export const ROLE = { superAdmin: 1, staff: 2, partner: 3 } as const;
export type Role = (typeof ROLE)[keyof typeof ROLE];

/** What an account may play; partners hold a share per flag. Served by GET /permissions. */
export const GAME_FLAGS = ["cricket", "football", "tennis", "bookmaker", "fancy", "casino"] as const;
export type GameFlag = (typeof GAME_FLAGS)[number];

/**
 * What a staff account may do: the spec's five (docs/product.md §2.12, Admin Management) plus `bets`, the settlement desk
 * and market analysis (docs/product.md §2.2, an extension: the spec's five cover no bet screen).
 */
export const STAFF_FLAGS = ["report", "users", "deposits", "withdraws", "settings", "bets"] as const;
export type StaffFlag = (typeof STAFF_FLAGS)[number];

export type PermissionMap<Flag extends string> = Partial<Record<Flag, boolean>>;

/** GET /b2c/admin. `permissions` is a JSON string of boolean flags; balance is "unlimited" for role 1. */
export type AdminRecord = {
  _id: string;
  udid: string;
  username: string;
  role: Role;
  balance: number | "unlimited";
  permissions: string;
};

export type PartnerRole = { _id: string; role: string };

/** Paginated lists. `page` starts at 1. */
export type Page<T> = { items: T[]; total: number; page: number; pageSize: number };
/** The most matches a username search of users or panels counts (issue 20): past it `total` is this and `totalCapped` is true. */
export const SEARCH_COUNT_LIMIT = 1_000;
/** A page of users or panels: a search matching more than SEARCH_COUNT_LIMIT says so (extension). */
export type AccountPage<T> = Page<T> & { totalCapped?: true };
export const PAGE_SIZE = { default: 50, max: 500 } as const;
/** The most accounts one `usernames` or `ids` lookup of the lists names (extension): a full page's worth, so one page answers them. */
export const NAMED_ACCOUNTS_MAX = PAGE_SIZE.max;

/** Messages with a meaning on the wire (docs/product.md §8). */
export const WIRE_MESSAGE = {
  adminNotFound: "Admin not found",
  fallback: "Something went wrong",
} as const;

/** A user row of GET /users (docs/product.md §3). `password` only for role 1. Money has 2 decimals. */
export type UserRow = {
  _id: string;
  username: string;
  mobNo: string | null;
  password?: string;
  balance: number;
  bonus: number;
  createdAt: string;
  login: boolean;
  bet: boolean;
  parent: { _id: string; username: string } | null;
};

/** A partner (panel) row of GET /partners: a user row plus its partner role's name. */
export type PartnerRow = UserRow & { roleName: string };

/** List queries of /users, /partners and /download-users (docs/protocol.md "Pages"). */
export type AccountListQuery = {
  username?: string;
  page?: number;
  pageSize?: number;
  orderBy?: "_id" | "username" | "balance" | "bonus" | "createdAt";
  isAcc?: boolean;
  partner?: string;
  /**
   * Extension: only these accounts, by exact username (case-insensitive), comma-separated, at most
   * NAMED_ACCOUNTS_MAX: a file's accounts resolved without reading the whole list.
   */
  usernames?: string;
  /** Extension: only these accounts, by id, comma-separated, at most NAMED_ACCOUNTS_MAX. */
  ids?: string;
};

/** GET /user-permissions/{id} and /partner-permissions/{id}; POST /change-permissions sends the same. */
export type PermissionSettings = { permissions: PermissionMap<GameFlag>; bet: boolean; login: boolean };

/** GET /login-logs/{userId}. */
export type LoginLog = { ip: string; userAgent: string; createdAt: string };

/** What /user-deposit and /user-withdraw answer: the account's new balance and the actor's. */
export type TransferResult = { balance: number; actorBalance: number | "unlimited" };

/** Deposit and withdrawal request status codes (docs/product.md §9). */
export const REQUEST_STATUS = { pending: 0, success: 1, fail: 2 } as const;
export type RequestStatus = (typeof REQUEST_STATUS)[keyof typeof REQUEST_STATUS];

/** A deposit or a withdrawal request: the two lists of the approval desk. */
export type RequestKind = "deposit" | "withdraw";

/** Deposit type codes (docs/product.md §9). */
export const DEPOSIT_TYPE = { upi: 0, bank: 1, usdt: 2 } as const;
export type DepositType = (typeof DEPOSIT_TYPE)[keyof typeof DEPOSIT_TYPE];

/** GET /b2c/deposits/{status} rows (docs/product.md §3). `image` is a path under the admin API (`/uploads/…`) or null. */
export type DepositRow = {
  _id: string;
  user: string;
  username: string;
  amount: number;
  bonus: number;
  totalBonus: number;
  couponCode: string | null;
  type: DepositType;
  utr: string;
  image: string | null;
  status: RequestStatus;
  createdAt: string;
};

export type BankDetails = { holder: string; bank: string; accNo: string; ifsc: string; branch: string };

/** GET /b2c/withdraws/{status} rows (docs/product.md §3). */
export type WithdrawRow = {
  _id: string;
  user: string;
  username: string;
  amount: number;
  totalBonus: number;
  bank: BankDetails;
  remark: string | null;
  status: RequestStatus;
  createdAt: string;
};

/**
 * POST /b2c/update-deposit (docs/product.md §7.2). Bonuses: each pair is an INR amount or a percentage of the
 * credited amount, never both; `inr` is the value of 1 USDT, required for a USDT deposit's success.
 */
export type DepositDecision = {
  _id: string;
  status: 1 | 2;
  inr?: number;
  prnBonus?: number;
  inrBonus?: number;
  mainPrnBonus?: number;
  mainInrBonus?: number;
};

export type WithdrawDecision = { _id: string; status: 1 | 2; remark?: string };

/** GET /transaction rows (docs/product.md §3, §2.8): `type` only for deposits. */
export type TransactionRow = { _id: string; amount: number; type?: DepositType; status: RequestStatus; createdAt: string };

/** The realtime payload of `new-deposit` and `new-withdraw` (docs/protocol.md "Realtime"). */
export type NewRequestEvent = { _id: string; username: string; amount: number };
export const REALTIME_EVENTS = {
  newDeposit: "new-deposit",
  newWithdraw: "new-withdraw",
  betSettled: "bet-settled",
  marketUpdate: "market-update",
} as const;

/** Sport codes (docs/product.md §9); paths and queries name the sport instead. */
export const SPORTS = ["cricket", "football", "tennis"] as const;
export type SportName = (typeof SPORTS)[number];
export type SportCode = 0 | 1 | 2;

/** GET /matches/{sport} (docs/protocol.md "Sports book"). */
export type SportsEvent = { eventId: string; sport: SportCode; teamA: string; teamB: string; inplay: boolean; startTime: string };

/** A price and its size (null: nothing on offer on that side). */
export type MarketQuote = { price: number | null; size: number | null };
/** `profit`: the caller's book if this runner wins (negative: the house loses). Bookmaker runners quote plain prices. */
export type MarketRunner<Quote = MarketQuote> = { name: string; status: string; profit: number; back: Quote; lay: Quote };
export type BookMarket<Quote = MarketQuote> = { marketId: string; name: string; status: string; runners: MarketRunner<Quote>[] };
/** A fancy line: `back`/`lay` price is the yes/no run line and size the rate per 100; `amounts` the open stake. */
export type FancyEntry = {
  marketId: string;
  name: string;
  status: string;
  amounts: number;
  back: MarketQuote;
  lay: MarketQuote;
  /** The caller's book for each final run count around the lines. */
  numbers: { num: number; profit: number }[];
};
/** GET /market-bets. */
export type MarketBets = {
  odds: BookMarket[];
  bookmakers: BookMarket<number | null>[];
  fancy: Record<string, FancyEntry[]>;
  /** The users holding open bets on the event, by username: all, or the first `usersLimit` (extension). */
  users: { _id: string; username: string }[];
  /** How many users hold open bets on the event (extension, docs/protocol.md "Market book"). */
  usersTotal?: number;
};
/** The most users one `/market-bets` answer lists when asked for `usersLimit` (extension). */
export const BOOK_USERS_LIMIT_MAX = 1000;
/** POST /market-green: eventId → green. */
export type MarketGreen = Record<string, boolean>;

export type BetStatus = "PENDING" | "SUCCESS" | "FAIL" | "ABANDONED";
export type MarketType = "odds" | "bookmaker" | "fancy";

/** POST /settel-bet `status` (docs/product.md §4): 1 the bet won, 2 it lost, 3 void. */
export const SETTLEMENT = { success: 1, fail: 2, abandoned: 3 } as const;
export type SettlementCode = (typeof SETTLEMENT)[keyof typeof SETTLEMENT];
/** The most bets one `POST /settle-bets` (extension) settles. */
export const SETTLE_BETS_MAX = 200;
/** One bet's answer in `POST /settle-bets`: what its own `/settel-bet` would have answered (HTTP status `code`, `msg`). */
export type SettledBet = { _id: string; code: number; msg: string };

/** A sports bet (docs/protocol.md "Sports book"). For fancy bets `x` is the run line and `odds` the rate per 100. */
export type SportsBet = {
  _id: string;
  sport: SportCode;
  sportName: SportName;
  userId: string;
  username: string;
  eventId: string;
  event: string;
  marketId: string | null;
  market: string;
  type: MarketType;
  runner: string;
  isBack: 0 | 1;
  amount: number;
  x: number;
  odds: number;
  exposure: number;
  status: BetStatus;
  profit: number;
  loss: number;
  createdAt: string;
  settledAt: string | null;
};

/** One market's pending bets in the queue's totals: how many, their stake and exposure. */
export type PendingMarketTotal = { eventId: string; event: string; marketId: string; market: string; count: number; stake: number; exposure: number };

/**
 * `totals` of GET /sports-pending-bets?totals=1 (extension): the filtered queue's pending bets in
 * all and per market, largest exposure first, from the platform's kept counts.
 */
export type PendingTotals = { count: number; stake: number; exposure: number; markets: PendingMarketTotal[] };

/**
 * GET /market-results (extension, sports API): a closed market that still has pending bets, with
 * the result the feed reported (the winning runner's name, or a fancy line's final run count).
 */
export type ClosedMarket = {
  eventId: string;
  event: string;
  sport: SportName;
  marketId: string;
  market: string;
  type: MarketType;
  result: string;
  closedAt: string;
  pending: number;
  stake: number;
  exposure: number;
};

/** GET /user-bets type 1. */
export type CasinoBet = {
  _id: string;
  providerCode: string;
  gameCode: string;
  roundId: string;
  amount: number;
  status: "SUCCESS" | "FAIL";
  profit: number;
  loss: number;
  createdAt: string;
};

/** GET /user-bets type 2 (the spec's third layout). */
export type GameBet = {
  _id: string;
  runnerName: string;
  gameId: string;
  roundId: string;
  amount: number;
  status: "SUCCESS" | "FAIL";
  profit: number;
  loss: number;
  createdAt: string;
};

/** GET /user-bets `type`. */
export const BET_KIND = { sports: 0, casino: 1, games: 2 } as const;
export type BetKind = (typeof BET_KIND)[keyof typeof BET_KIND];

/** GET /b2c/user-profit/{userId}. */
export type UserProfit = { profit: number; balance: number };

/** Realtime payloads of the sports book. */
export type BetSettledEvent = { _id: string; eventId: string };
export type MarketUpdateEvent = { eventId: string };

/** `GET /b2c/bonus-limits` (extension): the largest bonus one deposit decision grants. */
export type BonusLimits = {
  /** Percent of the credited amount, 2 decimals. */
  maxPercent: number;
  /** Rupees per decision. */
  maxInr: number;
};

/** GET /b2c/whatsapp and /b2c/telegram; POST /b2c/update-whatsapp and /b2c/update-telegram send the same. */
export type ContactSetting = { number: string };
/** GET /b2c/bonus, /b2c/ref-bonus, /b2c/main-bonus and their updates. */
export type BonusSetting = { bonus: number };
export type UpiEntry = { value: string; token: string };
/** GET /b2c/bank-details; POST /b2c/update-bank-deatils (the spec's spelling) sends the same. */
export type BankSettings = { bankName: string; holder: string; accNo: string; ifsc: string; usdt: string; upiId: UpiEntry[] };
/** GET /b2c/coupons rows; `bonus` is a percentage. POST /b2c/add-coupon sends {couponCode, bonus}. */
export type Coupon = { _id: string; couponCode: string; bonus: number; createdAt: string };
/** GET /b2c/slider rows; `image` is a path under the admin API (`/slider-images/…`). */
export type SliderImage = { _id: string; image: string };
/** POST /b2c/add-slider {images}: `image` is base64 without a data-URL prefix; the type is read from the bytes. */
export type NewSliderImage = { image: string; ext: string };

/** GET /b2c/admins rows: staff accounts with every staff flag as a boolean. */
export type StaffRow = { _id: string; username: string; createdAt: string; permissions: Record<StaffFlag, boolean> };
/** POST /b2c/add-admin. */
export type NewStaff = { username: string; password: string; permissions: PermissionMap<StaffFlag> };

/** Reports: figures per game flag, rupees, positive when the book (house or partner) gained. */
export type GameFigures = Record<GameFlag, number>;
/** Extension: the book's profit per Asia/Kolkata day of the range, days with settled results only, oldest first. */
export type DailyProfit = { day: string; profit: number }[];
/** GET /b2c/report (v1). `daily` is an extension: an operator's API may leave it out. */
export type ReportV1 = { profit: GameFigures; profit2: { total: number }; daily?: DailyProfit };
/** GET /report (v2); a user's report has `direct` only. `daily` as in v1. */
export type ReportV2 = { direct: GameFigures; indirect?: GameFigures; myShare?: GameFigures; daily?: DailyProfit };
/** Whom a report is for: absent, the caller (the house, or a partner's own subtree). */
export const REPORT_SUBJECT_TYPES = ["user", "partner"] as const;
export type ReportSubjectType = (typeof REPORT_SUBJECT_TYPES)[number];
