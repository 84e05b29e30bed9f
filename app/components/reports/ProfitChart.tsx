/**
 * The range's daily profit and loss (the answer's `daily` extension) as one bar per day, green
 * above zero and red below, over exactly the chosen days; the same figures as a table for screen
 * readers. uPlot and its stylesheet load here, with the report screens only, never in the shell's
 * first load.
 * Test hooks on the figure: `data-x-from` / `data-x-to` (the days uPlot's x scale spans) and
 * `data-y-labels` (the y labels drawn), written at each draw.
 */
import { useEffect, useRef, useState } from "react";
import type uPlot from "uplot";
import type { DailyProfit } from "../../../protocol/wire";
import { formatSignedWhole } from "~/lib/format";
import { daysBetween } from "~/lib/report-days";
import { dayAt, dayCentre, dayLabel, dayScale, dayTicks, profitScale, spansYears } from "./chart-axes";
import { ProfitFigure } from "./ProfitFigure";

const HEIGHT = 180;
const FONT_PX = 12;
/** Axis geometry in CSS pixels: tick length and the gap between a tick and its label. */
const TICK = 6;
const GAP = 5;
/** Room around a day label when working out how many fit; about this many y labels fit the height. */
const LABEL_SPACING = 24;
const Y_LABELS = 4;

export function ProfitChart({ from, to, daily }: { from: string; to: string; daily: DailyProfit }) {
  const figure = useRef<HTMLElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const days = daysBetween(from, to);
  const byDay = new Map(daily.map((point) => [point.day, point.profit]));
  const withYear = spansYears(days);

  useEffect(() => {
    let chart: uPlot | undefined;
    let cancelled = false;
    // The observed element itself, not the ref: a callback queued before unmount runs after the ref is cleared.
    const resize = new ResizeObserver(([entry]) => chart?.setSize({ width: (entry!.target as HTMLElement).clientWidth, height: HEIGHT }));
    void Promise.all([import("uplot"), import("uplot/dist/uPlot.min.css")]).then(([{ default: UPlot }]) => {
      if (cancelled || !host.current || !figure.current) return;
      const values = days.map((day) => byDay.get(day) ?? 0);
      const style = getComputedStyle(host.current);
      const colour = (name: string) => style.getPropertyValue(name).trim();
      const font = `${FONT_PX}px ${style.fontFamily}`;
      // Axis labels are canvas text: measured in the same font, so the axis is as wide as its widest label.
      const measure = document.createElement("canvas").getContext("2d")!;
      measure.font = font;
      const widest = (labels: readonly string[]) => Math.max(0, ...labels.map((label) => measure.measureText(label).width));
      const dayLabelWidth = widest([dayLabel(days[0]!, withYear)]);
      const axis = { font, stroke: colour("--dim"), gap: GAP, ticks: { stroke: colour("--rule"), size: TICK }, grid: { stroke: colour("--rule"), width: 1 } };
      const y = profitScale(values, Y_LABELS);
      const element = figure.current;

      chart = new UPlot(
        {
          width: host.current.clientWidth,
          height: HEIGHT,
          // Room on the right for the last day's label, which is centred on its bar.
          padding: [10, Math.ceil(dayLabelWidth / 2), 0, 0],
          legend: { show: false },
          cursor: { show: false },
          scales: {
            x: { time: false, range: dayScale(days) },
            y: { range: [y.min, y.max] },
          },
          axes: [
            {
              ...axis,
              grid: { show: false },
              size: FONT_PX + TICK + GAP + 6,
              splits: (u) => dayTicks(days, u.bbox.width / UPlot.pxRatio / (dayLabelWidth + LABEL_SPACING)).map(dayCentre),
              values: (_u, splits) => splits.map((seconds) => dayLabel(dayAt(seconds), withYear)),
            },
            {
              ...axis,
              size: (_u, labels) => Math.ceil(widest(labels ?? [])) + GAP + TICK + 4,
              splits: () => y.splits,
              values: (_u, splits) => splits.map(formatSignedWhole),
            },
          ],
          series: [
            {},
            {
              label: "Profit/Loss",
              width: 0,
              paths: UPlot.paths.bars!({ size: [0.7, 64, 1], align: 0 }),
              points: { show: false },
              // Green above the zero line, red below: one gradient split exactly at zero.
              fill: (u) => {
                const top = u.bbox.top;
                const bottom = top + u.bbox.height;
                const zero = Math.min(1, Math.max(0, (u.valToPos(0, "y", true) - top) / (bottom - top)));
                const gradient = u.ctx.createLinearGradient(0, top, 0, bottom);
                gradient.addColorStop(0, colour("--green"));
                gradient.addColorStop(zero, colour("--green"));
                gradient.addColorStop(zero, colour("--red"));
                gradient.addColorStop(1, colour("--red"));
                return gradient;
              },
            },
          ],
          hooks: {
            draw: [
              (u) => {
                element.dataset.xFrom = dayAt(u.scales.x!.min!);
                element.dataset.xTo = dayAt(u.scales.x!.max! - 1);
                element.dataset.yLabels = y.splits.map(formatSignedWhole).join(" | ");
              },
            ],
          },
        },
        [days.map(dayCentre), values],
        host.current,
      );
      resize.observe(host.current);
      setReady(true);
    });
    return () => {
      cancelled = true;
      resize.disconnect();
      chart?.destroy();
    };
    // `days`, `byDay` and `withYear` are derived from these three.
  }, [from, to, daily]);

  return (
    <figure ref={figure} className="report-chart" aria-label="Daily profit and loss" data-ready={ready || undefined}>
      <figcaption className="dim">Daily profit and loss</figcaption>
      <div ref={host} className="report-chart-plot" aria-hidden="true" />
      <table className="visually-hidden">
        <caption>Daily profit and loss, by day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Profit or loss</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day}>
              <th scope="row">{dayLabel(day, true)}</th>
              <td>
                <ProfitFigure amount={byDay.get(day) ?? 0} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
