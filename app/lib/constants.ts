import { SETTINGS_TOASTS } from "../../protocol/rules";
import { REQUEST_STATUS } from "../../protocol/wire";
import { FALLBACK_MESSAGE } from "../machines/error-message";

/**
 * The spec's constants, in one place (docs/product.md §8, §9). Messages are the product's exact words.
 */
export const MESSAGES = {
  passwordChanged: "Password changed successfully",
  ownPasswordMismatch: "Password and confirm password do not match",
  passwordMismatch: "Password and Confirm Password do not match",
  invalidShare: "Invalid share value",
  userAdded: "User added successfully",
  depositAdded: "Deposit added successfully",
  withdrawn: "Withdraw successfully",
  permissionsSaved: "Permissions saved successfully",
  defaultAdminChanged: "Default admin changed successfully",
  depositsUpdated: "Deposits updated successfully",
  withdrawsUpdated: "Withdraws updated successfully",
  /** docs/product.md §9: shown for 3 seconds. */
  betSettled: "Bet settled successfully!",
  betResettled: "Bet resettled successfully",
  /** Four-eyes job thresholds are on and this settlement came outside a stored job (issue 19). */
  unstoredSettlement: "Four-eyes job thresholds are on: settle through a stored job",
  /** A stored job's item posted other than it was confirmed (and counted by the job thresholds; issue 19). */
  jobItemChanged: "This item differs from its job as confirmed: not sent",
  /** A started settlement job (issue 35) whose later items could not be written: those were never sent. */
  jobNotStored: "The job could not be stored whole: not sent",
  settlementUnanswered: "The API's answer did not name this bet: it may be settled",
  /** A stored bulk job's item posted again after it was done (issue 19): not sent twice. */
  answeredBefore: "Done before: not sent again",
  /** A reload while the console is out of reach (app/lib/outage.ts): the screen keeps what it showed. */
  consoleUnreachable: "The console cannot be reached: showing what was last read",
  /** A screen that could not be read because the console is out of reach. */
  screenUnreachable: "The console cannot be reached: try again once it is back",
  fallback: FALLBACK_MESSAGE,
} as const;

/** docs/product.md §8's toasts of the settings and staff screens; WhatsApp, Telegram and the limits have none there (docs/product-notes.md). */
export const SETTINGS_MESSAGES = {
  bankDetailsSaved: SETTINGS_TOASTS.bankDetails,
  whatsappSaved: SETTINGS_TOASTS.whatsapp,
  telegramSaved: SETTINGS_TOASTS.telegram,
  bonusSaved: SETTINGS_TOASTS.bonus,
  bonusLimitsSaved: SETTINGS_TOASTS.bonusLimits,
  couponAdded: SETTINGS_TOASTS.couponAdded,
  sliderSaved: SETTINGS_TOASTS.sliderSaved,
  sliderImageRemoved: SETTINGS_TOASTS.sliderImageRemoved,
  staffAdded: SETTINGS_TOASTS.staffAdded,
  staffRemoved: SETTINGS_TOASTS.staffRemoved,
  staffNotFound: "Staff not found",
} as const;

/** docs/product.md §5, §9: a deposit or withdrawal remark holds at most 100 characters. */
export const REMARK_MAX = 100;

/** The longest account username a form may carry as the audit trail's label of its account (issue 32). */
export const ACCOUNT_LABEL_MAX = 64;

/** docs/product.md §9: general toasts top-right for 5 s; call errors top-centre. */
export const TOAST = {
  durationMs: 5000,
  shortDurationMs: 3000,
} as const;

/** The palette's history keeps each operator's last 50 commands with their answers (docs/ux.md "Palette"). */
export const PALETTE_HISTORY_KEPT = 50;
/** The app's holds on keys give up after this long (a palette chunk that never loads): what they held is refused (app/lib/key-buffer.ts). */
export const KEY_HOLD_LIMIT_MS = 10_000;

export const ROLE_LABEL: Record<number, string> = { 1: "super admin", 2: "staff", 3: "partner" };

/** Times show in the configured zone (`TIME_ZONE`) unless configured otherwise: the platform's home zone. */
export const DEFAULT_TIME_ZONE = "Asia/Kolkata";

/** docs/product.md §2.5: the messaging link's country code. */
export const MESSAGING_COUNTRY_CODE = "91";

/** docs/product.md §2.11, §9: request lists refresh every 10 seconds. */
export const REQUEST_REFRESH_MS = 10_000;
/** docs/product.md §9: market data polls every 10000 ms; a relayed `market-update` refetches at once. */
export const MARKET_REFRESH_MS = 10_000;
/**
 * Home (issue 33; its age limits are HOME_AGE_AMBER_MINUTES and HOME_AGE_RED_MINUTES, env.server.ts):
 * a job with no item sent or answered for HOME_JOB_STALLED_MS is making no progress; the risk line
 * names HOME_RISK_EVENTS events.
 */
export const HOME_JOB_STALLED_MS = 120_000;
export const HOME_RISK_EVENTS = 3;
/** Home's sparkline: the profit and loss of this many days, today the last. */
export const HOME_SPARKLINE_DAYS = 14;
/** Users an event's screen lists to choose from (first by username); `/market-bets` counts the rest (issue 20). */
export const MARKET_DETAIL_USERS = 200;
/**
 * How a settlement chunk goes upstream (app/lib/bets.server.ts, ADR 0007): in `/settle-bets` calls
 * (extension) of SETTLE_BULK_SIZE bets, SETTLE_BULK_IN_FLIGHT at once; to an API without that
 * call, one `/settel-bet` per bet, SETTLE_CONCURRENCY at once.
 */
export const SETTLE_BULK_SIZE = 50;
export const SETTLE_BULK_IN_FLIGHT = 4;
export const SETTLE_CONCURRENCY = 24;
/**
 * How long Settle market…'s read of a market or event stands for the job confirmed from it, which
 * is then checked against that read instead of a second one (app/lib/bets.server.ts, takeScopeRead).
 */
export const SCOPE_READ_REUSE_MS = 10_000;

/** Items of a stored account job's chunk performed upstream at once, each another account's (app/lib/accounts.server.ts). */
export const ACCOUNT_JOB_CHUNK_IN_FLIGHT = 4;

/** Pending deposits, withdrawals, four-eyes approvals and unfinished jobs on the status line; null where the operator may not see them. */
export type PendingCounts = { deposits: number | null; withdraws: number | null; approvals: number | null; jobs: number | null };

/** docs/product.md §2.11: the request tabs, keyed 1–3, and the status code each lists. */
export const REQUEST_TABS = [
  { label: "Pending", status: REQUEST_STATUS.pending },
  { label: "Success", status: REQUEST_STATUS.success },
  { label: "Fail", status: REQUEST_STATUS.fail },
] as const;

/** docs/product.md §9: deposit type and transaction status names. */
export const DEPOSIT_TYPE_LABEL = ["UPI", "BANK", "USDT"] as const;
export const TRANSACTION_STATUS_LABEL = ["Pending", "Approved", "Rejected"] as const;

/** docs/product.md §8: spoken alerts for new requests. */
export const SPOKEN_ALERT = {
  text: { deposit: "New Deposit Request", withdraw: "New Withdrawal Request" },
  repeats: 3,
  lang: "en-US",
  rate: 0.8,
  pitch: 0,
} as const;
