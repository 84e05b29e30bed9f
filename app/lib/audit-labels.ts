/**
 * What the audit trail calls each entry's call (issue 32): the desks' words, not the API's. The one
 * table of them: /audit's list and the palette's `!` show the label, the row panel and the CSV keep
 * the API's call name too. Every call of protocol/calls.ts has one (audit-labels.test.ts), and so
 * does every call the console records of its own (sign-ins, second factors, four-eyes).
 */
import { z } from "zod";
import type { CallName } from "../../protocol/calls";

const API_CALL_LABELS: Record<CallName, string> = {
  login: "Sign in upstream",
  logout: "Sign out upstream",
  currentAdmin: "Read own account",
  isLogouted: "Check sign-out",
  changePassword: "Change password",
  permissions: "Read game flags",
  partnerRoles: "Read panel roles",
  users: "List users",
  partners: "List panels",
  defaultAdmin: "Read default admin",
  makeDefaultAdmin: "Make default admin",
  downloadUsers: "Download users",
  addUser: "Add account",
  userDeposit: "Deposit",
  userWithdraw: "Withdraw",
  changeUserPassword: "Change user password",
  userPermissions: "Read user permissions",
  partnerPermissions: "Read panel permissions",
  changePermissions: "Change permissions",
  loginLogs: "Read login logs",
  deposits: "List deposit requests",
  withdraws: "List withdrawal requests",
  updateDeposit: "Approve deposit request",
  updateWithdraw: "Approve withdrawal request",
  bonusLimits: "Read bonus limits",
  updateBonusLimits: "Change bonus limits",
  transactions: "List transactions",
  pendingBets: "List pending bets",
  settleBet: "Settle bet",
  settleBets: "Settle bets",
  resettleBet: "Resettle bet",
  userBets: "List bet history",
  downloadBets: "Download bets",
  userProfit: "Read user profit",
  upload: "Read receipt",
  bankDetails: "Read bank details",
  updateBankDetails: "Change bank details",
  updateBankDetailsCorrected: "Change bank details",
  whatsapp: "Read WhatsApp",
  updateWhatsapp: "Change WhatsApp",
  telegram: "Read Telegram",
  updateTelegram: "Change Telegram",
  bonus: "Read bonus",
  updateBonus: "Change bonus",
  mainBonus: "Read main bonus",
  updateMainBonus: "Change main bonus",
  refBonus: "Read referral bonus",
  updateRefBonus: "Change referral bonus",
  coupons: "List coupons",
  addCoupon: "Add coupon",
  slider: "List slider images",
  addSlider: "Add slider images",
  removeSlider: "Remove slider image",
  sliderImage: "Read slider image",
  admins: "List staff",
  addAdmin: "Add staff",
  removeAdmin: "Remove staff",
  matches: "List events",
  marketGreen: "Read market totals",
  marketBets: "Read market bets",
  marketResults: "List market results",
  scorecard: "Read scorecard",
  reportV1: "Read report",
  reportV2: "Read report (v2)",
};

/** The console's own entries: sessions, second factors, four-eyes and its settings (no upstream call). */
const CONSOLE_CALL_LABELS = {
  signIn: "Sign in",
  signOut: "Sign out",
  sessionEnded: "Session ended",
  secondFactorEnrol: "Add authenticator app",
  secondFactorReset: "Reset second factor",
  secondFactorPolicy: "Second factor policy",
  passkeyAdd: "Add passkey",
  passkeyRemove: "Remove passkey",
  allowlist: "Address allowlist",
  fourEyesThresholds: "Four-eyes thresholds",
  fourEyesReject: "Reject approval",
  settleJob: "Settlement job",
  accountJob: "Bulk account job",
} as const;

export type ConsoleCall = keyof typeof CONSOLE_CALL_LABELS;

const CALL_LABELS: Readonly<Record<string, string>> = { ...API_CALL_LABELS, ...CONSOLE_CALL_LABELS };

/** The desk's name of a recorded call; a call this console does not know (written by another version) shows as itself. */
export const callLabel = (call: string): string => (Object.hasOwn(CALL_LABELS, call) ? CALL_LABELS[call]! : call);

/** A bet as a settlement's request carries it: only its id is sure (a resettlement sends no more). */
const betSchema = z.object({ bet: z.object({ _id: z.string(), event: z.string().optional(), market: z.string().optional(), runner: z.string().optional() }) });
const decisionSchema = z.object({ _id: z.string() });

/**
 * What an entry acted on besides its account, read from its recorded request: a settlement's bet
 * with its event, market and runner where the request has them, a decision's request id.
 */
export function entrySubject(call: string, request: unknown): string | null {
  if (call === "settleBet" || call === "resettleBet") {
    const parsed = betSchema.safeParse(request);
    if (!parsed.success) return null;
    const { _id, event, market, runner } = parsed.data.bet;
    return [`Bet ${_id}`, event, market, runner].filter(Boolean).join(" · ");
  }
  if (call === "updateDeposit" || call === "updateWithdraw") {
    const parsed = decisionSchema.safeParse(request);
    return parsed.success ? `Request ${parsed.data._id}` : null;
  }
  return null;
}
