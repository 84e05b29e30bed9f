/**
 * The second factor's commands (issue 30): any operator sets up their own; the super admin sets
 * which roles must use one and resets another operator's (they enrol again at their next sign-in,
 * and their sessions end). Policy and reset post to the Second Factor screen's action.
 */
import { problemOf } from "../lib/forms/first-issue";
import { policyRolesText } from "../lib/forms/second-factor";
import { staffUsernameField } from "../lib/forms/staff";
import { SCREENS } from "../lib/screens";
import type { Command } from "./types";

const SUPER_ADMIN = { audience: "superAdmin" } as const;

export const SECURITY_COMMANDS: readonly Command[] = [
  {
    id: "security.set-up",
    title: "Set up second factor…",
    group: "Settings",
    keywords: ["2fa", "mfa", "authenticator", "passkey", "totp", "security", "recovery codes"],
    run: ({ navigate }) => navigate(SCREENS["second-factor"].path),
  },
  {
    id: "security.policy",
    title: "Second factor policy…",
    group: "Settings",
    keywords: ["2fa", "mfa", "require", "enforce", "security"],
    access: SUPER_ADMIN,
    steps: [
      { kind: "text", name: "roles", label: "Roles that must use a second factor: 1 super admin, 2 staff, 3 partner (e.g. 1,2), or none", check: (value) => problemOf(policyRolesText, value) },
      { kind: "confirm", name: "confirm", label: (answers) => `Require a second factor of ${answers.roles!.trim() === "none" ? "no role" : `roles ${answers.roles!.trim()}`}?` },
    ],
    run: ({ submitAction }, answers) => submitAction(SCREENS["second-factor"].path, { intent: "policy", roles: answers.roles! }),
  },
  {
    id: "security.reset",
    title: "Reset second factor…",
    group: "Staff",
    keywords: ["2fa", "mfa", "lost phone", "locked out", "authenticator", "passkey"],
    access: SUPER_ADMIN,
    steps: [
      { kind: "text", name: "username", label: "Username", check: (value) => problemOf(staffUsernameField, value) },
      { kind: "confirm", name: "confirm", label: (answers) => `Reset ${answers.username!.trim()}'s second factor? Their sessions end; they enrol again at their next sign-in.` },
    ],
    run: ({ submitAction }, answers) => submitAction(SCREENS["second-factor"].path, { intent: "reset", username: answers.username!.trim() }),
  },
];
