/**
 * The audit trail's commands (ADR 0009): an account's trail from the palette or with `L` on a row
 * of the users and panels lists, and the trail's CSV with the filters showing.
 */
import type { AuditHit } from "../lib/audit-trail.server";
import { formatDateTime } from "../lib/format";
import { SCREENS } from "../lib/screens";
import { useServerSearch } from "./use-server-search";
import type { Command, PickSource, PickSources, ScreenCommand } from "./types";

const AUDIT = SCREENS.audit;

/** /audit with these filters. */
export const auditAddress = (filters: Record<string, string>) => `${AUDIT.path}?${new URLSearchParams(filters)}`;

/** `!`: the newest entries done to or by an account; choosing one opens /audit on that account. */
export const AUDIT_PICK_SOURCES: PickSources = {
  trail: {
    label: "Audit entry",
    placeholder: "Search a username",
    idle: "Type a username: what it did, and what was done to it",
    useFound: (term) => useServerSearch<AuditHit>("/resources/audit/search", term),
    row: (hit) => ({
      key: `audit-${hit.seq}`,
      title: `${hit.label} by ${hit.operator}`,
      detail: [hit.accountName ?? hit.accountId, hit.subject, formatDateTime(hit.at, true)].filter(Boolean).join(" · "),
      group: hit.outcome,
      amount: hit.amount ?? undefined,
    }),
    answer: (hit) => ({ value: hit.seq }),
    mode: { prefix: "!", noun: "the audit trail", address: (hit) => auditAddress({ account: hit.searched }) },
  } satisfies PickSource<AuditHit>,
};

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
