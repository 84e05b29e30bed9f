/** The bottom status line, like a terminal multiplexer's: who, balance, mode, clock. */
import { useEffect, useState } from "react";
import type { Operator } from "../commands/types";
import { ROLE_LABEL } from "../lib/constants";
import { formatBalance } from "../lib/format";

function Clock() {
  // Rendered in the browser only, so the server's time never mismatches the page's.
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <time className="status-clock">{now ? now.toLocaleTimeString("en-GB") : "--:--:--"}</time>;
}

type StatusLineProps = { operator: Operator; balance: number | "unlimited"; mode: string };

export function StatusLine({ operator, balance, mode }: StatusLineProps) {
  return (
    <footer className="status-line" aria-label="Status line">
      <span className="status-mode" data-mode={mode}>
        {mode}
      </span>
      <span className="status-user">
        {operator.username} <span className="dim">[{ROLE_LABEL[operator.role]}]</span>
      </span>
      <span className="status-balance" aria-label="Balance">
        bal {formatBalance(balance)}
      </span>
      <span className="status-spacer" />
      <span className="dim">? keys · Ctrl+K commands</span>
      <Clock />
    </footer>
  );
}
