/**
 * Kysely's view of the tables created by `migrations/`. Keep the two in step: a
 * migration that changes a table changes its interface here.
 *
 * Both drivers are configured to read the same JS types: bigint (int8) → `bigint`,
 * numeric → `string` (exact), timestamptz → `Date`, jsonb → parsed JSON. jsonb is
 * written as JSON text, so every driver stores it the same way.
 */
import type { ColumnType, Generated, Selectable } from "kysely";
import type { GameFlag, StaffFlag } from "../../protocol/wire.js";

/** An identity column: read as bigint, never written. */
type Identity = ColumnType<bigint, never, never>;
/** A bigint foreign key or amount: ids from the wire arrive as decimal strings. */
type Int8 = ColumnType<bigint, bigint | string, bigint | string>;
/** Integer minor units (paise/cents) of money. */
type Minor = ColumnType<bigint, bigint | undefined, bigint>;
type Json<T> = ColumnType<T, string | undefined, string>;
type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Timestamp = ColumnType<Date, Date, Date>;
/** Computed by the database (GENERATED ALWAYS … STORED): read only. */
type Computed<T> = ColumnType<T, never, never>;

export type Flags = Partial<Record<GameFlag | StaffFlag, boolean>>;
export type Shares = Partial<Record<GameFlag, number>>;

export interface SchemaMigrationsTable {
  name: string;
  applied_at: CreatedAt;
}

export interface PartnerRolesTable {
  id: Identity;
  name: string;
  /** 1 is the highest tier; a partner may only create partners of a lower tier. */
  level: number;
}

export interface AdminsTable {
  id: Identity;
  username: string;
  password_hash: string;
  role: number;
  permissions: Json<Flags>;
  partner_role_id: Int8 | null;
  parent_id: Int8 | null;
  share: Json<Shares>;
  balance: Minor;
  login_enabled: Generated<boolean>;
  bet_enabled: Generated<boolean>;
  /** The password sealed under the reveal key (security/reveal.ts), for the super admin only. */
  password_sealed: string | null;
  username_key: Computed<string>;
  demo_password: Generated<boolean>;
  created_at: CreatedAt;
  /** Set when the super admin removes a staff account: it can no longer sign in. */
  removed_at: ColumnType<Date | null, never, Date>;
}

export interface AdminSessionsTable {
  id: Identity;
  udid: string;
  token_hash: string;
  admin_id: Int8;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: ColumnType<Date | null, never, Date>;
  ip: string;
  user_agent: string;
}

export interface LoginLogsTable {
  id: Identity;
  account_kind: AccountKind;
  account_id: Int8;
  ip: string;
  user_agent: string;
  created_at: CreatedAt;
}

export interface UsersTable {
  id: Identity;
  username: string;
  password_hash: string;
  mob_no: string | null;
  parent_id: Int8;
  balance: Minor;
  bonus: Minor;
  login_enabled: Generated<boolean>;
  bet_enabled: Generated<boolean>;
  permissions: Json<Flags>;
  password_sealed: string | null;
  username_key: Computed<string>;
  demo_password: Generated<boolean>;
  created_at: CreatedAt;
}

export interface UserSessionsTable {
  id: Identity;
  token_hash: string;
  user_id: Int8;
  created_at: CreatedAt;
  expires_at: Timestamp;
  revoked_at: ColumnType<Date | null, never, Date>;
  ip: string;
  user_agent: string;
}

export type AccountKind = "admin" | "user";
/** Ledger accounts: admins and users, plus the platform's own (system_accounts). */
export type LedgerAccountKind = AccountKind | "system";
export type TransferKind =
  | "opening"
  | "deposit"
  | "withdraw"
  | "request-deposit"
  | "main-bonus"
  | "bonus"
  | "coupon-bonus"
  | "withdraw-reserve"
  | "withdraw-return"
  | "withdraw-payout"
  | "bet-place"
  | "bet-settle"
  | "bet-win"
  | "bet-resettle"
  | "casino-stake"
  | "casino-win";

export interface LedgerTransfersTable {
  id: Identity;
  kind: TransferKind;
  actor_id: Int8;
  request_id: string | null;
  remark: Generated<string>;
  created_at: CreatedAt;
}

export interface LedgerEntriesTable {
  id: Identity;
  transfer_id: Int8;
  account_kind: LedgerAccountKind;
  account_id: Int8;
  /** Signed minor units: positive credits the account. */
  amount: ColumnType<bigint, bigint, never>;
  balance_after: ColumnType<bigint, bigint, never>;
  created_at: CreatedAt;
}

/** What an audit row concerns: accounts by id, or a site setting by its key. */
export type AuditTargetKind = AccountKind | "settings";
/** A change's value before and after it (null where nothing existed). */
export type AuditChange = { before: unknown; after: unknown };

export interface AuditLogTable {
  id: Identity;
  actor_id: Int8;
  action: string;
  target_kind: AuditTargetKind;
  target_ids: Json<string[]>;
  change: Json<AuditChange | null>;
  created_at: CreatedAt;
}

/** The keys of the one settings store (migration 012). */
export type SettingKey = "bank-details" | "whatsapp" | "telegram" | "bonus" | "ref-bonus" | "main-bonus" | "default-admin" | "bonus-limits";

export interface SettingsTable {
  key: SettingKey;
  value: Json<unknown>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SliderImagesTable {
  id: Identity;
  file_name: string;
  created_at: CreatedAt;
}

export type BetStatus = "PENDING" | "SUCCESS" | "FAIL" | "ABANDONED";

export interface SportsBetsTable {
  id: Identity;
  user_id: Int8;
  sport: number;
  event_id: string;
  market: string;
  market_type: MarketType;
  runner: string;
  is_back: boolean;
  price: string;
  amount: ColumnType<bigint, bigint, bigint>;
  odds: string | null;
  status: ColumnType<BetStatus, BetStatus | undefined, BetStatus>;
  profit: Minor;
  loss: Minor;
  created_at: ColumnType<Date, Date | undefined, never>;
  market_id: string | null;
  exposure: Minor;
  settled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  settled_by: ColumnType<bigint | null, bigint | null | undefined, bigint | null>;
  request_id: ColumnType<string | null, string | null | undefined, never>;
}

export type FeedStatus = "ACTIVE" | "OPEN" | "SUSPENDED" | "CLOSED";
export type MarketType = "odds" | "bookmaker" | "fancy";

export interface SportsEventsTable {
  event_id: string;
  sport: number;
  team_a: string;
  team_b: string;
  start_time: Date;
  inplay: boolean;
  status: FeedStatus;
  score: Json<string[]>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SportsMarketsTable {
  market_id: string;
  event_id: string;
  type: MarketType;
  name: string;
  heading: string | null;
  status: FeedStatus;
  result: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  /** Set when the feed closes the market with its result (migration 011). */
  closed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Prices and sizes are numeric(…, 2), read as exact text. */
export interface SportsRunnersTable {
  market_id: string;
  name: string;
  position: number;
  status: FeedStatus;
  back_price: string | null;
  back_size: string | null;
  lay_price: string | null;
  lay_size: string | null;
}

/** 1 casino (provider and game code), 2 game (runner and game id). */
export interface CasinoBetsTable {
  id: Identity;
  kind: number;
  user_id: Int8;
  provider_code: string | null;
  game_code: string;
  runner_name: string | null;
  round_id: string;
  amount: ColumnType<bigint, bigint, never>;
  status: "SUCCESS" | "FAIL";
  profit: Minor;
  loss: Minor;
  created_at: CreatedAt;
  /** The server seed the round was drawn with (migration 010); null for rounds played before it. */
  seed_id: ColumnType<bigint | null, bigint | null | undefined, never>;
}

/**
 * Server seeds of the casino draw (migrations 010, 018): announced (the hash public) as the next
 * seed, then active from `started_at`; secret until retired, revealed once retired.
 */
export interface CasinoSeedsTable {
  id: Identity;
  seed: string;
  seed_hash: string;
  announced_at: ColumnType<Date, Date | undefined, never>;
  /** Null while the seed is the announced next one. */
  started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  retired_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A partner above a user and its share (percent) of one game at settlement. */
export type ChainLink = { id: string; share: number };

export interface BetResultsTable {
  id: Identity;
  bet_kind: "sports" | "casino";
  bet_id: Int8;
  settled_at: ColumnType<Date, Date | undefined, never>;
  game: GameFlag;
  user_id: Int8;
  house_result: ColumnType<bigint, bigint, never>;
  chain: Json<ChainLink[]>;
}

/** The reports' daily rollup (migration 008), kept by report_rollup_add at each bet result. */
export interface ReportRollupTable {
  subject_kind: "house" | "partner" | "user";
  subject_id: Int8;
  day: string;
  game: GameFlag;
  direct: ColumnType<bigint, never, never>;
  indirect: ColumnType<bigint, never, never>;
  /** Percent × minor units (numeric, exact). */
  my_share: ColumnType<string, never, never>;
}

/** Pending sports bets per key: 'all', 'event:<id>', 'market:<id>', 'user:<id>', 'sport:<code>'. */
export interface SportsPendingCountsTable {
  key: string;
  n: bigint;
  /** The stake and exposure of those bets, minor units (migration 015). */
  stake: Generated<bigint>;
  exposure: Generated<bigint>;
}

/** End users per parent admin, kept by triggers on users (migration 013). */
export interface UserCountsTable {
  parent_id: bigint;
  n: bigint;
}

/** An open position of the market book (migration 007): one per event, market, runner, fancy line and user. */
export interface MarketPositionsTable {
  event_id: string;
  market_id: string;
  runner: string;
  /** The fancy bet's run line; "0.00" on odds and bookmaker markets. */
  line: string;
  user_id: Int8;
  if_won: bigint;
  if_lost: bigint;
  stake: bigint;
  bets: bigint;
}

/** A market, runner and line's open positions summed over every user (migration 016). */
export type MarketBookTotalsTable = Omit<MarketPositionsTable, "user_id">;

/** How many open positions a user holds on an event (migration 017). */
export interface MarketEventBettorsTable {
  event_id: string;
  user_id: Int8;
  positions: bigint;
}

/** How many users hold open positions on an event (migration 017). */
export interface MarketEventBettorCountsTable {
  event_id: string;
  n: bigint;
}

export interface BetResettlementsTable {
  id: Identity;
  bet_id: Int8;
  actor_id: Int8;
  before_status: BetStatus;
  after_status: BetStatus;
  before_profit: bigint;
  before_loss: bigint;
  after_profit: bigint;
  after_loss: bigint;
  created_at: CreatedAt;
}

export interface SystemAccountsTable {
  id: Identity;
  name: string;
  balance: Minor;
}

export interface CouponsTable {
  id: Identity;
  coupon_code: string;
  /** A percentage, numeric(7,2) as exact text. */
  bonus: string;
  created_at: CreatedAt;
}

/** 0 pending, 1 success, 2 fail. */
type Status = ColumnType<number, number | undefined, number>;
type Decided<T> = ColumnType<T | null, never, T | null>;
/** Minor units the decision writes. */
type Credit = ColumnType<bigint, never, bigint>;

export interface DepositRequestsTable {
  id: Identity;
  user_id: Int8;
  amount: ColumnType<bigint, bigint, never>;
  type: number;
  utr: string;
  coupon_code: string | null;
  image: string | null;
  status: Status;
  usdt_rate: Decided<bigint>;
  credited: Credit;
  main_bonus: Credit;
  bonus: Credit;
  coupon_bonus: Credit;
  total_bonus: Credit;
  decided_at: Decided<Date>;
  decided_by: Decided<bigint>;
  created_at: CreatedAt;
}

export type BankDetailsJson = { holder: string; bank: string; accNo: string; ifsc: string; branch: string };

export interface WithdrawRequestsTable {
  id: Identity;
  user_id: Int8;
  amount: ColumnType<bigint, bigint, never>;
  bank: Json<BankDetailsJson>;
  remark: Decided<string>;
  status: Status;
  decided_at: Decided<Date>;
  decided_by: Decided<bigint>;
  created_at: CreatedAt;
}

export interface Database {
  schema_migrations: SchemaMigrationsTable;
  partner_roles: PartnerRolesTable;
  admins: AdminsTable;
  admin_sessions: AdminSessionsTable;
  login_logs: LoginLogsTable;
  users: UsersTable;
  user_sessions: UserSessionsTable;
  sports_bets: SportsBetsTable;
  settings: SettingsTable;
  ledger_transfers: LedgerTransfersTable;
  ledger_entries: LedgerEntriesTable;
  audit_log: AuditLogTable;
  system_accounts: SystemAccountsTable;
  coupons: CouponsTable;
  deposit_requests: DepositRequestsTable;
  withdraw_requests: WithdrawRequestsTable;
  slider_images: SliderImagesTable;
  sports_events: SportsEventsTable;
  sports_markets: SportsMarketsTable;
  sports_runners: SportsRunnersTable;
  casino_bets: CasinoBetsTable;
  casino_seeds: CasinoSeedsTable;
  bet_results: BetResultsTable;
  bet_resettlements: BetResettlementsTable;
  sports_pending_counts: SportsPendingCountsTable;
  report_rollup: ReportRollupTable;
  market_positions: MarketPositionsTable;
  market_book_totals: MarketBookTotalsTable;
  market_event_bettors: MarketEventBettorsTable;
  market_event_bettor_counts: MarketEventBettorCountsTable;
  user_counts: UserCountsTable;
}

export type Admin = Selectable<AdminsTable>;
export type AdminSession = Selectable<AdminSessionsTable>;
export type User = Selectable<UsersTable>;
