/** One card per game flag and a total card: a report group at a glance. */
import { GAME_FLAGS, type GameFigures, type GameFlag } from "../../../protocol/wire";
import { ProfitFigure } from "./ProfitFigure";

const GAME_LABEL: Record<GameFlag, string> = {
  cricket: "Cricket",
  football: "Football",
  tennis: "Tennis",
  bookmaker: "Bookmaker",
  fancy: "Fancy",
  casino: "Casino",
};

const sum = (figures: GameFigures) => Math.round(GAME_FLAGS.reduce((total, game) => total + figures[game], 0) * 100) / 100;

export function GameCards({ title, figures, total = sum(figures) }: { title: string; figures: GameFigures; total?: number }) {
  const id = `report-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section className="report-group" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      <ul className="report-cards">
        {GAME_FLAGS.map((game) => (
          <li key={game} className="report-card" aria-label={`${title}: ${GAME_LABEL[game]}`}>
            <span className="dim">{GAME_LABEL[game]}</span>
            <ProfitFigure amount={figures[game]} />
          </li>
        ))}
        <li className="report-card report-total" aria-label={`${title}: Total`}>
          <span className="dim">Total</span>
          <ProfitFigure amount={total} />
        </li>
      </ul>
    </section>
  );
}
