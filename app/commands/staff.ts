/**
 * Admin Management's palette commands (docs/product.md §2.12), the super admin's alone: add a staff member
 * with its flags, remove one (its sessions end at once). Both post to the /admins action, as the
 * screen's form and Remove buttons do.
 */
import { STAFF_FLAGS } from "../../protocol/wire";
import { problemOf } from "../lib/forms/first-issue";
import { accountPasswordField } from "../lib/forms/account-rules";
import { staffFlagsText, staffUsernameField } from "../lib/forms/staff";
import { SCREENS } from "../lib/screens";
import type { Command } from "./types";

const usernameStep = { kind: "text", name: "username", label: "Username", check: (value: string) => problemOf(staffUsernameField, value) } as const;

const flagsOf = (text: string) => staffFlagsText.parse(text).join(",");

export const STAFF_COMMANDS: readonly Command[] = [
  {
    id: "staff.add",
    title: "Add staff…",
    group: "Staff",
    keywords: ["new admin", "add admin", "staff member"],
    access: SCREENS.admins,
    steps: [
      usernameStep,
      { kind: "text", name: "password", label: "Password", secret: true, check: (value) => problemOf(accountPasswordField, value) },
      {
        kind: "text",
        name: "flags",
        label: `Flags: ${STAFF_FLAGS.join(", ")}, or none`,
        check: (value) => problemOf(staffFlagsText, value),
      },
      {
        kind: "confirm",
        name: "confirm",
        label: (answers) => `Add staff ${answers.username!.trim()} with ${flagsOf(answers.flags!).replaceAll(",", ", ") || "no flags"}?`,
      },
    ],
    run: ({ submitAction }, answers) =>
      submitAction(SCREENS.admins.path, { intent: "add", username: answers.username!, password: answers.password!, flag: flagsOf(answers.flags!) }),
  },
  {
    id: "staff.remove",
    title: "Remove staff…",
    group: "Staff",
    keywords: ["delete admin", "remove admin", "revoke"],
    access: SCREENS.admins,
    steps: [
      usernameStep,
      { kind: "confirm", name: "confirm", label: (answers) => `Remove staff ${answers.username!.trim()}? Their sessions end at once.` },
    ],
    run: ({ submitAction }, answers) => submitAction(SCREENS.admins.path, { intent: "remove", username: answers.username! }),
  },
];
