/**
 * The frame both report screens share: whose report, the start and end dates, the range presets
 * (buttons and the `t y w m` keys of app/commands/reports.ts) and the daily chart; the version's
 * groups go inside.
 */
import { Form, useNavigate } from "@remix-run/react";
import type { ReactNode } from "react";
import type { DailyProfit } from "../../../protocol/wire";
import { presetRange, type ReportPreset } from "~/lib/report-days";
import type { ReportAddress } from "~/lib/reports.server";
import { useScreenCommands } from "../ui/shell-context";
import { ProfitChart } from "./ProfitChart";

const PRESETS: { preset: ReportPreset; label: string; key: string }[] = [
  { preset: "today", label: "Today", key: "t" },
  { preset: "yesterday", label: "Yesterday", key: "y" },
  { preset: "week", label: "This week", key: "w" },
  { preset: "month", label: "This month", key: "m" },
];

const subjectOf = (query: ReportAddress): Record<string, string> =>
  query.user && query.type ? { user: query.user, type: query.type, username: query.username ?? "" } : {};

/** `daily` absent: the operator's API lacks the extension, and the screen says so instead of drawing. */
export function ReportScreen({ title, query, daily, children }: { title: string; query: ReportAddress; daily: DailyProfit | undefined; children: ReactNode }) {
  const navigate = useNavigate();
  const showPreset = (preset: ReportPreset) => navigate(`?${new URLSearchParams({ ...subjectOf(query), ...presetRange(preset) })}`);
  useScreenCommands({
    "reports.today": () => showPreset("today"),
    "reports.yesterday": () => showPreset("yesterday"),
    "reports.week": () => showPreset("week"),
    "reports.month": () => showPreset("month"),
  });
  const whose = query.username ?? (query.user ? `#${query.user}` : null);

  return (
    <section className="report-screen" aria-labelledby="report-title">
      <h2 id="report-title">
        {title}
        {whose && <span className="dim"> · {whose}</span>}
        <span className="dim">
          {" "}
          · {query.from}
          {query.to !== query.from && ` to ${query.to}`}
        </span>
      </h2>
      <Form method="get" className="report-range" key={`${query.from}:${query.to}`}>
        {Object.entries(subjectOf(query)).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label>
          Start date <input type="date" name="from" defaultValue={query.from} required />
        </label>
        <label>
          End date <input type="date" name="to" defaultValue={query.to} required />
        </label>
        <button type="submit">Show</button>
        {PRESETS.map(({ preset, label, key }) => (
          <button key={preset} type="button" onClick={() => showPreset(preset)} aria-keyshortcuts={key}>
            {label} <kbd>{key}</kbd>
          </button>
        ))}
      </Form>
      {children}
      {daily ? (
        <ProfitChart from={query.from} to={query.to} daily={daily} />
      ) : (
        <p className="dim">No daily chart: the operator's API does not send the reports' daily series (an extension).</p>
      )}
    </section>
  );
}
