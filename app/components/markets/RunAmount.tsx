/** docs/product.md §2.14: a fancy entry's Run Amount, each final run count with the book; X or Esc closes. */
import type { FancyEntry } from "../../../protocol/wire";
import { Overlay } from "../ui/Overlay";
import { BookValue } from "./BookValue";

export function RunAmount({ entry, onClose }: { entry: FancyEntry; onClose: () => void }) {
  return (
    <Overlay label="Run Amount" onClose={onClose} className="run-amount">
      <header className="run-amount-head">
        <h2>Run Amount</h2>
        <button type="button" onClick={onClose} aria-label="Close">
          X
        </button>
      </header>
      <p className="dim">{entry.name}</p>
      <table aria-label={`Run Amount of ${entry.name}`}>
        <thead>
          <tr>
            <th scope="col">Runs</th>
            <th scope="col" className="num">
              Book
            </th>
          </tr>
        </thead>
        <tbody>
          {entry.numbers.map((row) => (
            <tr key={row.num}>
              <td>{row.num}</td>
              <td className="num">
                <BookValue value={row.profit} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Overlay>
  );
}
