/**
 * The users and panels desk's commands (docs/product.md §2.5, §2.6): the palette's account actions, which
 * post to the same row-panel action the screens' forms post to, and role 1's bulk commands.
 */
import { useEffect } from "react";
import { accountBulkJob } from "../lib/account-jobs";
import { isPartnerField, usersDownloadHref, type AccountMode } from "../lib/account-list";
import type { AccountHit } from "../lib/accounts.server";
import { amountField, newRequestId, remarkField } from "../lib/forms/account-actions";
import { problemOf } from "../lib/forms/first-issue";
import { formatMoney } from "../lib/format";
import { SCREENS } from "../lib/screens";
import { accountCacheVersion, cachedAccounts, rememberAccounts, subscribeAccountCache } from "./account-cache";
import { keepHits, useServerSearch } from "./use-server-search";
import type { Command, PickSource, PickSources, ViewSelection } from "./types";

/** The desk's commands need what its screens need: staff with the `users` flag, role 1, partners. */
const ACCOUNT_DESK = SCREENS.users;

/** Users and panels by username on the server, remembered for the palette's plain-text ranking. */
function useAccountSearch(term: string) {
  const search = useServerSearch<AccountHit>("/resources/accounts/search", term);
  useEffect(() => rememberAccounts(search.hits), [search.hits]);
  return search;
}

/** A user or panel as the palette shows and answers it. */
const accountHits: Omit<PickSource<AccountHit>, "useFound"> = {
  label: "User or panel",
  placeholder: "Search username",
  idle: "Type a username",
  row: (hit) => ({ key: `${hit.mode}-${hit.id}`, title: hit.username, group: hit.mode === "users" ? "user" : "panel", amount: hit.balance }),
  answer: (hit) => ({ value: hit.id, extra: { label: hit.username, mode: hit.mode } }),
};

export const ACCOUNT_PICK_SOURCES: PickSources = {
  /** `@` and the steps asking for a user or panel; plain text finds those seen this session too. */
  accounts: {
    ...accountHits,
    useFound: useAccountSearch,
    mode: {
      prefix: "@",
      noun: "users and panels",
      address: (hit) => `${SCREENS[hit.mode].path}?${new URLSearchParams({ search: hit.username })}`,
    },
    recall: { hits: cachedAccounts, version: accountCacheVersion, subscribe: subscribeAccountCache },
  } satisfies PickSource<AccountHit>,
  /** Make default admin…'s: panels alone. */
  panels: { ...accountHits, useFound: (term) => keepHits(useAccountSearch(term), (hit) => hit.mode === "partners") },
};

/** `Deposit…` / `Withdraw…`: user → amount → remark → confirm, then the row panel's own action. */
const transfer = (intent: "deposit" | "withdraw", title: string, verb: string, keywords: string[]): Command => ({
  id: `account.${intent}`,
  title: `${title}…`,
  group: "Accounts",
  keywords,
  access: ACCOUNT_DESK,
  steps: [
    accountPick,
    amountStep,
    remarkStep,
    {
      kind: "confirm",
      name: "confirm",
      label: (answers) => `${verb} ${answers.amount} ${intent === "deposit" ? "to" : "from"} ${answers["user.label"]}?`,
    },
  ],
  // Always from the palette (its confirmation is asked there), which gives every attempt one key.
  run: ({ submitAction }, answers, requestId = newRequestId()) =>
    submitAction(`/${answers["user.mode"]}`, {
      intent,
      ...pickedAccount(answers),
      amount: answers.amount!,
      remark: answers.remark ?? "",
      requestId,
    }),
});

const accountPick = { kind: "pick", name: "user", label: "User or panel", source: "accounts" } as const;

/** The picked account as the desk's forms name it: its id, its desk, and its username for the audit trail (issue 32). */
const pickedAccount = (answers: Record<string, string | undefined>) => ({
  user: answers.user!,
  username: answers["user.label"]!,
  isPartner: isPartnerField(answers["user.mode"] as AccountMode),
});
const amountStep = { kind: "text", name: "amount", label: "Amount", check: (value: string) => problemOf(amountField, value) } as const;
const remarkStep = {
  kind: "text",
  name: "remark",
  label: "Remark",
  optional: true,
  check: (value: string) => problemOf(remarkField, value),
} as const;

/** `Toggle login` / `Toggle bet`: pick the account, flip the switch. */
const toggle = (name: "login" | "bet", title: string): Command => ({
  id: `account.toggle-${name}`,
  title,
  group: "Accounts",
  keywords: [`${name} switch`, "enable", "disable", "block"],
  access: ACCOUNT_DESK,
  steps: [accountPick],
  run: ({ submitAction }, answers) =>
    submitAction(`/${answers["user.mode"]}`, {
      intent: "switch",
      ...pickedAccount(answers),
      switch: name,
      on: "toggle",
    }),
});

/** Opens an account's row panel in its list (`?open=`), the same panel its Actions button opens. */
const openPanel = (id: string, title: string, logs: boolean, keywords: string[]): Command => ({
  id,
  title,
  group: "Accounts",
  keywords,
  access: ACCOUNT_DESK,
  steps: [accountPick],
  run: ({ navigate }, answers) =>
    navigate(
      `/${answers["user.mode"]}?${new URLSearchParams({
        search: answers["user.label"]!,
        open: answers.user!,
        ...(logs ? { logs: "1" } : {}),
      })}`,
    ),
});

/** Bulk commands are role 1's, on the rows selected in the users or panels list. */
const BULK = { access: { audience: "superAdmin" }, needsSelection: true } as const;

/** Items of a bulk job: one per selected row, each with the requestId it keeps for good. */
const bulkItems = (selection: ViewSelection) =>
  selection.rows.map((row) => ({ key: row.id, label: row.username, requestId: newRequestId() }));

const bulkTransfer = (intent: "deposit" | "withdraw", verb: string): Command => ({
  id: `bulk.${intent}`,
  title: `Bulk ${intent}…`,
  group: "Bulk",
  keywords: ["selection", "many", intent === "deposit" ? "credit" : "debit"],
  ...BULK,
  steps: [amountStep, remarkStep],
  run: ({ selection, startBulk, submitAction }, answers) => {
    const { mode, rows } = selection!;
    const amount = Number(answers.amount);
    startBulk(
      accountBulkJob({
        title: `Bulk ${intent}`,
        question: `${verb} ${formatMoney(amount)} ${intent === "deposit" ? "to" : "from"} each of ${rows.length} ${
          mode === "users" ? "users" : "panels"
        } (total ${formatMoney(amount * rows.length)})?`,
        kind: intent,
        items: bulkItems(selection!).map((item) => ({
          ...item,
          payload: {
            path: `/${mode}`,
            form: { intent, user: item.key, username: item.label, isPartner: isPartnerField(mode), amount: answers.amount!, remark: answers.remark ?? "", requestId: item.requestId },
          },
        })),
        submit: submitAction,
      }),
    );
  },
});

const bulkSwitch = (name: "login" | "bet"): Command => ({
  id: `bulk.switch-${name}`,
  title: `Bulk ${name} on/off…`,
  group: "Bulk",
  keywords: ["selection", "many", `toggle ${name}`, "enable", "disable"],
  ...BULK,
  steps: [
    {
      kind: "text",
      name: "state",
      label: "on or off",
      check: (value) => (value === "on" || value === "off" ? null : "Type on or off"),
    },
  ],
  run: ({ selection, startBulk, submitAction }, answers) => {
    const { mode, rows } = selection!;
    startBulk(
      accountBulkJob({
        title: `Bulk ${name} ${answers.state}`,
        question: `Switch ${name === "bet" ? "Bet" : "Login"} ${answers.state} for ${rows.length} ${mode === "users" ? "users" : "panels"}?`,
        kind: "switch",
        items: bulkItems(selection!).map((item) => ({
          ...item,
          payload: {
            path: `/${mode}`,
            form: { intent: "switch", user: item.key, username: item.label, isPartner: isPartnerField(mode), switch: name, on: String(answers.state === "on") },
          },
        })),
        submit: submitAction,
      }),
    );
  },
});

export const ACCOUNT_COMMANDS: readonly Command[] = [
  {
    id: "account.add-user",
    title: "Add user…",
    group: "Accounts",
    keywords: ["new user", "create user", "player"],
    access: ACCOUNT_DESK,
    run: ({ navigate }) => navigate("/users?new=1"),
  },
  {
    id: "account.add-panel",
    title: "Add panel…",
    group: "Accounts",
    keywords: ["new panel", "create partner", "agent", "master"],
    access: ACCOUNT_DESK,
    run: ({ navigate }) => navigate("/partners?new=1"),
  },
  transfer("deposit", "Deposit", "Deposit", ["credit", "add balance", "chips"]),
  transfer("withdraw", "Withdraw", "Withdraw", ["debit", "remove balance"]),
  {
    id: "account.password",
    title: "Change user password…",
    group: "Accounts",
    keywords: ["reset password", "user password", "panel password"],
    access: ACCOUNT_DESK,
    steps: [
      accountPick,
      { kind: "text", name: "password", label: "Password", secret: true },
      { kind: "text", name: "confirmPassword", label: "Confirm Password", secret: true },
    ],
    // The row panel's action checks the pair (docs/product.md §5) and answers its message.
    run: ({ submitAction }, answers) =>
      submitAction(`/${answers["user.mode"]}`, {
        intent: "password",
        ...pickedAccount(answers),
        password: answers.password!,
        confirmPassword: answers.confirmPassword!,
      }),
  },
  openPanel("account.permissions", "Permissions…", false, ["flags", "switches", "games"]),
  openPanel("account.login-logs", "Login logs", true, ["sign-ins", "ip", "devices"]),
  {
    id: "account.make-default",
    title: "Make default admin…",
    group: "Accounts",
    keywords: ["md", "default panel"],
    access: { audience: "superAdmin" },
    steps: [
      { kind: "pick", name: "user", label: "Panel", source: "panels" },
      { kind: "confirm", name: "confirm", label: (answers) => `Make ${answers["user.label"]} the default admin?` },
    ],
    run: ({ submitAction }, answers) =>
      submitAction("/partners", { intent: "makeDefault", user: answers.user!, username: answers["user.label"]!, isPartner: "true" }),
  },
  {
    id: "account.download",
    title: "Download users",
    group: "Accounts",
    keywords: ["csv", "export", "spreadsheet"],
    access: ACCOUNT_DESK,
    // From the Users screen it keeps the list's search and sort, as the screen's button does.
    run: ({ download, location }) => download(usersDownloadHref(location)),
  },
  toggle("login", "Toggle login"),
  toggle("bet", "Toggle bet"),
  bulkTransfer("deposit", "Deposit"),
  bulkTransfer("withdraw", "Withdraw"),
  bulkSwitch("bet"),
  bulkSwitch("login"),
];
