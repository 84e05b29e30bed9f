/**
 * The registry of actions. Screens, keys and the palette all run these same entries; later
 * screens add theirs here. Navigation commands exist only for screens that exist.
 */
import { ROLE } from "../../protocol/wire";
import { amountField, newRequestId, remarkField } from "../lib/forms/account-actions";
import { firstIssue, problemOf } from "../lib/forms/first-issue";
import { newPasswordField, ownPasswordSchema } from "../lib/forms/own-password";
import { formatMoney } from "../lib/format";
import type { Command, Operator, ViewSelection } from "./types";

const goTo = (id: string, title: string, to: string, letter: string, keywords: string[] = []): Command => ({
  id,
  title: `Go to ${title}`,
  group: "Go to",
  keywords: [title.toLowerCase(), ...keywords],
  keys: [`g ${letter}`],
  run: ({ navigate }) => navigate(to),
});

/** Staff need the `users` flag for the account desk; role 1 and partners have it by their role. */
const mayManageAccounts = (operator: Operator) => operator.role !== ROLE.staff || Boolean(operator.flags.users);

/** `Deposit…` / `Withdraw…`: user → amount → remark → confirm, then the row panel's own action. */
const transfer = (intent: "deposit" | "withdraw", title: string, verb: string, keywords: string[]): Command => ({
  id: `account.${intent}`,
  title: `${title}…`,
  group: "Accounts",
  keywords,
  permission: mayManageAccounts,
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
  run: ({ submitAction }, answers) =>
    submitAction(`/${answers["user.mode"]}`, {
      intent,
      user: answers.user!,
      isPartner: String(answers["user.mode"] === "partners"),
      amount: answers.amount!,
      remark: answers.remark ?? "",
      requestId: newRequestId(),
    }),
});

const accountPick = { kind: "pick", name: "user", label: "User or panel", source: "accounts" } as const;
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
  permission: mayManageAccounts,
  steps: [accountPick],
  run: ({ submitAction }, answers) =>
    submitAction(`/${answers["user.mode"]}`, {
      intent: "switch",
      user: answers.user!,
      isPartner: String(answers["user.mode"] === "partners"),
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
  permission: mayManageAccounts,
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

/** Approve or reject a pending request: pick it, then the desk's own confirmation asks. */
const decide = (kind: "deposit" | "withdraw", decision: 1 | 2, title: string, keywords: string[]): Command => ({
  id: `request.${decision === 1 ? "approve" : "reject"}-${kind}`,
  title,
  group: "Requests",
  keywords,
  permission: (operator) => operator.role !== ROLE.staff || Boolean(operator.flags[kind === "deposit" ? "deposits" : "withdraws"]),
  steps: [
    { kind: "pick", name: "request", label: kind === "deposit" ? "Pending deposit" : "Pending withdrawal", source: `${kind}s` },
  ],
  run: ({ navigate }, answers) =>
    navigate(`/${kind}s?${new URLSearchParams({ status: "0", open: answers.request!, decide: String(decision) })}`),
});

/** Bulk commands are role 1's, on the rows selected in the users or panels list. */
const mayRunBulk = (operator: Operator, selection: ViewSelection | null) =>
  operator.role === ROLE.superAdmin && (selection?.rows.length ?? 0) > 0;

/** Items of a bulk job: one per selected row, each with the requestId it keeps for good. */
const bulkItems = (selection: ViewSelection) =>
  selection.rows.map((row) => ({ key: row.id, label: row.username, requestId: newRequestId() }));

const bulkTransfer = (intent: "deposit" | "withdraw", verb: string): Command => ({
  id: `bulk.${intent}`,
  title: `Bulk ${intent}…`,
  group: "Bulk",
  keywords: ["selection", "many", intent === "deposit" ? "credit" : "debit"],
  permission: mayRunBulk,
  steps: [amountStep, remarkStep],
  run: ({ selection, startBulk, submitAction }, answers) => {
    const { mode, rows } = selection!;
    const amount = Number(answers.amount);
    startBulk({
      title: `Bulk ${intent}`,
      question: `${verb} ${formatMoney(amount)} ${intent === "deposit" ? "to" : "from"} each of ${rows.length} ${
        mode === "users" ? "users" : "panels"
      } (total ${formatMoney(amount * rows.length)})?`,
      items: bulkItems(selection!),
      perform: async (item) => {
        const outcome = await submitAction(`/${mode}`, {
          intent,
          user: item.key,
          isPartner: String(mode === "partners"),
          amount: answers.amount!,
          remark: answers.remark ?? "",
          requestId: item.requestId,
        });
        if (!outcome.ok) throw new Error(outcome.message);
      },
    });
  },
});

const bulkSwitch = (name: "login" | "bet"): Command => ({
  id: `bulk.switch-${name}`,
  title: `Bulk ${name} on/off…`,
  group: "Bulk",
  keywords: ["selection", "many", `toggle ${name}`, "enable", "disable"],
  permission: mayRunBulk,
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
    startBulk({
      title: `Bulk ${name} ${answers.state}`,
      question: `Switch ${name === "bet" ? "Bet" : "Login"} ${answers.state} for ${rows.length} ${mode === "users" ? "users" : "panels"}?`,
      items: bulkItems(selection!),
      perform: async (item) => {
        const outcome = await submitAction(`/${mode}`, {
          intent: "switch",
          user: item.key,
          isPartner: String(mode === "partners"),
          switch: name,
          on: String(answers.state === "on"),
        });
        if (!outcome.ok) throw new Error(outcome.message);
      },
    });
  },
});

export const COMMANDS: readonly Command[] = [
  goTo("go.home", "Home", "/", "h", ["start", "dashboard"]),
  goTo("go.users", "Users", "/users", "u", ["accounts", "players", "clients"]),
  goTo("go.partners", "Panels", "/partners", "p", ["partners", "agents", "masters"]),
  goTo("go.deposits", "Deposits", "/deposits", "d", ["requests", "approve", "pending"]),
  goTo("go.withdraws", "Withdrawals", "/withdraws", "w", ["withdraws", "payouts", "requests"]),
  goTo("go.change-password", "Change Password", "/change-password", "c", ["password", "account"]),
  {
    id: "account.add-user",
    title: "Add user…",
    group: "Accounts",
    keywords: ["new user", "create user", "player"],
    permission: mayManageAccounts,
    run: ({ navigate }) => navigate("/users?new=1"),
  },
  {
    id: "account.add-panel",
    title: "Add panel…",
    group: "Accounts",
    keywords: ["new panel", "create partner", "agent", "master"],
    permission: mayManageAccounts,
    run: ({ navigate }) => navigate("/partners?new=1"),
  },
  transfer("deposit", "Deposit", "Deposit", ["credit", "add balance", "chips"]),
  transfer("withdraw", "Withdraw", "Withdraw", ["debit", "remove balance"]),
  {
    id: "account.password",
    title: "Change user password…",
    group: "Accounts",
    keywords: ["reset password", "user password", "panel password"],
    permission: mayManageAccounts,
    steps: [
      accountPick,
      { kind: "text", name: "password", label: "Password", secret: true },
      { kind: "text", name: "confirmPassword", label: "Confirm Password", secret: true },
    ],
    // The row panel's action checks the pair (spec §5) and answers its message.
    run: ({ submitAction }, answers) =>
      submitAction(`/${answers["user.mode"]}`, {
        intent: "password",
        user: answers.user!,
        isPartner: String(answers["user.mode"] === "partners"),
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
    permission: (operator) => operator.role === ROLE.superAdmin,
    steps: [
      { kind: "pick", name: "user", label: "Panel", source: "panels" },
      { kind: "confirm", name: "confirm", label: (answers) => `Make ${answers["user.label"]} the default admin?` },
    ],
    run: ({ submitAction }, answers) =>
      submitAction("/partners", { intent: "makeDefault", user: answers.user!, isPartner: "true" }),
  },
  {
    id: "account.download",
    title: "Download users",
    group: "Accounts",
    keywords: ["csv", "export", "spreadsheet"],
    permission: mayManageAccounts,
    run: ({ download }) => download("/resources/accounts/users/download"),
  },
  decide("deposit", 1, "Approve deposit…", ["success deposit", "accept", "credit"]),
  decide("deposit", 2, "Reject deposit…", ["fail deposit", "decline"]),
  decide("withdraw", 1, "Approve withdrawal…", ["success withdrawal", "payout", "accept"]),
  decide("withdraw", 2, "Reject withdrawal…", ["fail withdrawal", "decline"]),
  toggle("login", "Toggle login"),
  toggle("bet", "Toggle bet"),
  bulkTransfer("deposit", "Deposit"),
  bulkTransfer("withdraw", "Withdraw"),
  bulkSwitch("bet"),
  bulkSwitch("login"),
  {
    id: "palette.open",
    title: "Open command palette",
    group: "View",
    keywords: ["commands", "search"],
    keys: ["mod+k", ":"],
    run: ({ openPalette }) => openPalette(),
  },
  {
    id: "help.keys",
    title: "Show key help",
    group: "View",
    keywords: ["keys", "shortcuts", "help", "keymap"],
    keys: ["?"],
    run: ({ openHelp }) => openHelp(),
  },
  {
    id: "alerts.mute",
    title: "Mute or unmute spoken alerts",
    group: "View",
    keywords: ["sound", "speech", "voice", "silence", "alerts"],
    run: ({ toggleMute }) => toggleMute(),
  },
  {
    id: "sidebar.toggle",
    title: "Toggle sidebar",
    group: "View",
    keywords: ["menu", "navigation", "links"],
    run: ({ toggleSidebar }) => toggleSidebar(),
  },
  {
    id: "password.change",
    title: "Change password…",
    group: "Account",
    keywords: ["own password", "security"],
    steps: [
      { kind: "text", name: "curPassword", label: "Old Password", secret: true },
      { kind: "text", name: "password", label: "New Password", secret: true, check: (value) => problemOf(newPasswordField, value) },
      {
        kind: "text",
        name: "confirmPassword",
        label: "Confirm Password",
        secret: true,
        check: (value, answers) => {
          const form = ownPasswordSchema.safeParse({ ...answers, confirmPassword: value });
          return form.success ? null : firstIssue(form.error);
        },
      },
    ],
    // The same action the Change Password screen's form posts to.
    run: ({ submitAction }, answers) => submitAction("/change-password", answers),
  },
  {
    id: "session.logout",
    title: "Logout",
    group: "Account",
    keywords: ["sign out", "log out", "exit"],
    keys: ["mod+shift+l"],
    run: ({ logout }) => logout(),
  },
];

export const commandsFor = (operator: Operator, selection: ViewSelection | null = null): Command[] =>
  COMMANDS.filter((command) => !command.permission || command.permission(operator, selection));

export function commandById(id: string): Command {
  const command = COMMANDS.find((c) => c.id === id);
  if (!command) throw new Error(`Unknown command ${id}`);
  return command;
}
