/**
 * The report screens' commands: the range presets on keys (`t` today, `y` yesterday, `w` this
 * week, `m` this month) and the palette's **Report for…**, which picks a user or panel.
 */
import { SCREENS } from "../lib/screens";
import type { Command, ScreenCommand } from "./types";

const preset = (id: string, title: string, key: string) =>
  ({ id, title, group: "Reports", scope: "reports", keys: [key] }) as const satisfies ScreenCommand;

export const REPORT_SCREEN_COMMANDS = [
  preset("reports.today", "Range: today", "t"),
  preset("reports.yesterday", "Range: yesterday", "y"),
  preset("reports.week", "Range: this week", "w"),
  preset("reports.month", "Range: this month", "m"),
] as const;

export const REPORT_PALETTE_COMMANDS: readonly Command[] = [
  {
    id: "reports.report-for",
    title: "Report for…",
    group: "Reports",
    keywords: ["profit", "loss", "pnl", "user report", "panel report"],
    access: SCREENS["report-v1"],
    steps: [{ kind: "pick", name: "user", label: "User or panel", source: "accounts" }],
    run: ({ navigate }, answers) =>
      navigate(
        `${SCREENS["report-v1"].path}?${new URLSearchParams({
          user: answers.user!,
          type: answers["user.mode"] === "partners" ? "partner" : "user",
          username: answers["user.label"]!,
        })}`,
      ),
  },
];
