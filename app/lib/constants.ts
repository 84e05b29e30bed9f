/**
 * The spec's constants, in one place (spec §8, §9). Messages are the product's exact words.
 */
export const MESSAGES = {
  passwordChanged: "Password changed successfully",
  ownPasswordMismatch: "Password and confirm password do not match",
  fallback: "Something went wrong",
} as const;

/** Spec §9: general toasts top-right for 5 s; call errors top-centre. */
export const TOAST = {
  durationMs: 5000,
  shortDurationMs: 3000,
} as const;

export const ROLE_LABEL: Record<number, string> = { 1: "super admin", 2: "staff", 3: "partner" };

/** Spec §2.3: the sidebar's links, in order, with exactly these labels. */
export const SIDEBAR_LINKS = [
  { label: "Report V1", to: "/report-v1" },
  { label: "Report V2", to: "/report-v2" },
  { label: "Users", to: "/users" },
  { label: "Panels", to: "/partners" },
  { label: "Deposits", to: "/deposits" },
  { label: "Withdrawals", to: "/withdraws" },
  { label: "Bank Details", to: "/bank-details" },
  { label: "Whatsapp Number", to: "/whatsapp-number" },
  { label: "Slider", to: "/slider" },
  { label: "Main Bonus", to: "/main-bonus" },
  { label: "Bonus", to: "/bonus" },
  { label: "Refer Bonus", to: "/ref-bonus" },
  { label: "Market Analysis", to: "/market-analysis" },
  { label: "Pending Sport Bets", to: "/pending-sport-bets" },
  { label: "Change Password", to: "/change-password" },
] as const;
