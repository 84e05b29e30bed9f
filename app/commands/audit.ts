/**
 * The audit trail's commands (ADR 0009): an account's trail from the palette or with `L` on a row
 * of the users and panels lists, and the trail's CSV with the filters showing.
 */
import { SCREENS } from "../lib/screens";
import type { Command, ScreenCommand } from "./types";

const AUDIT = SCREENS.audit;

/** /audit with these filters. */
export const auditAddress = (filters: Record<string, string>) => `${AUDIT.path}?${new URLSearchParams(filters)}`;

export const AUDIT_SCREEN_COMMANDS = [
  { id: "accounts.trail", title: "Trail: the cursor account's audit trail", group: "Accounts", scope: "accounts", keys: ["L"] },
] as const satisfies readonly ScreenCommand[];

export const AUDIT_COMMANDS: readonly Command[] = [
  {
    id: "audit.account",
    title: "Audit trail of account…",
    group: "Accounts",
    keywords: ["log", "history", "who did what", "changes"],
    access: AUDIT,
    steps: [{ kind: "pick", name: "user", label: "User or panel", source: "accounts" }],
    run: ({ navigate }, answers) => navigate(auditAddress({ account: answers["user.label"]! })),
  },
  {
    id: "audit.download",
    title: "Download audit trail",
    group: "Reports",
    keywords: ["csv", "export", "log"],
    access: AUDIT,
    // From /audit it keeps the filters showing.
    run: ({ download, location }) => download(`/resources/audit/download${location.pathname === AUDIT.path ? location.search : ""}`),
  },
];
