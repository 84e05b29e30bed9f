/** Commands of the whole console: navigation (one per row of the screens table), layers, session. */
import { firstIssue, problemOf } from "../lib/forms/first-issue";
import { newPasswordField, ownPasswordSchema } from "../lib/forms/own-password";
import { LETTERED_SCREENS } from "../lib/screens";
import type { Command } from "./types";

/** `Go to …`, one per screen with a `g` letter. */
export const GO_TO_COMMANDS: readonly Command[] = LETTERED_SCREENS.map((screen) => ({
  id: `go.${screen.id}`,
  title: `Go to ${screen.label}`,
  group: "Go to",
  keywords: [screen.label.toLowerCase(), ...(screen.keywords ?? [])],
  keys: [`g ${screen.letter}`],
  access: screen,
  extension: screen.extension,
  run: ({ navigate }) => navigate(screen.path),
}));

export const SHELL_COMMANDS: readonly Command[] = [
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
