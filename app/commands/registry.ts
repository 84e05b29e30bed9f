/**
 * The registry of actions. Screens, keys and the palette all run these same entries; later
 * screens add theirs here. Navigation commands exist only for screens that exist.
 */
import { ROLE } from "../../protocol/wire";
import { amountField, newRequestId, remarkField } from "../lib/forms/account-actions";
import { firstIssue, problemOf } from "../lib/forms/first-issue";
import { newPasswordField, ownPasswordSchema } from "../lib/forms/own-password";
import type { Command, Operator } from "./types";

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
    { kind: "pick", name: "user", label: "User or panel", source: "accounts" },
    { kind: "text", name: "amount", label: "Amount", check: (value) => problemOf(amountField, value) },
    { kind: "text", name: "remark", label: "Remark", optional: true, check: (value) => problemOf(remarkField, value) },
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

export const COMMANDS: readonly Command[] = [
  goTo("go.home", "Home", "/", "h", ["start", "dashboard"]),
  goTo("go.users", "Users", "/users", "u", ["accounts", "players", "clients"]),
  goTo("go.partners", "Panels", "/partners", "p", ["partners", "agents", "masters"]),
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

export const commandsFor = (operator: Operator): Command[] =>
  COMMANDS.filter((command) => !command.permission || command.permission(operator));

export function commandById(id: string): Command {
  const command = COMMANDS.find((c) => c.id === id);
  if (!command) throw new Error(`Unknown command ${id}`);
  return command;
}
