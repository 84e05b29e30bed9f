/**
 * The range's daily profit and loss (the answer's `daily` extension) as a uPlot line. uPlot and
 * its stylesheet load here, with the report screens only, never in the shell's first load.
 */
import { useEffect, useRef, useState } from "react";
import type { DailyProfit } from "../../../protocol/wire";
import { daysBetween } from "~/lib/report-days";

const DAY_SECONDS = 86_400;

export function ProfitChart({ from, to, daily }: { from: string; to: string; daily: DailyProfit }) {
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let chart: { destroy: () => void } | undefined;
    let cancelled = false;
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([{ default: UPlot }]) => {
      if (cancelled || !host.current) return;
      const byDay = new Map(daily.map((point) => [point.day, point.profit]));
      const days = daysBetween(from, to);
      const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
      const y = days.map((day) => byDay.get(day) ?? 0);
      const style = getComputedStyle(host.current);
      chart = new UPlot(
        {
          width: Math.max(320, host.current.clientWidth),
          height: 180,
          // Days are Asia/Kolkata dates placed at UTC midnight: show them as dates, in UTC.
          tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), "UTC"),
          scales: { x: { time: true, range: (_u, min, max) => (min === max ? [min - DAY_SECONDS, max + DAY_SECONDS] : [min, max]) } },
          axes: [
            { stroke: style.getPropertyValue("--dim"), grid: { stroke: style.getPropertyValue("--rule") } },
            { stroke: style.getPropertyValue("--dim"), grid: { stroke: style.getPropertyValue("--rule") } },
          ],
          series: [{}, { label: "Profit/Loss", stroke: style.getPropertyValue("--accent"), width: 2, points: { show: days.length <= 31 } }],
        },
        [x, y],
        host.current,
      );
      setReady(true);
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [from, to, daily]);

  return (
    <figure className="report-chart" aria-label="Daily profit and loss" data-ready={ready || undefined}>
      <figcaption className="dim">Daily profit and loss</figcaption>
      <div ref={host} />
    </figure>
  );
}
