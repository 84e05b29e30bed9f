/** The bottom status line, like a terminal multiplexer's: who, balance, mode, clock. */
import { useEffect, useState } from "react";
import { Link } from "@remix-run/react";
import type { Operator } from "../../commands/types";
import { ROLE_LABEL, type PendingCounts } from "../../lib/constants";
import { formatBalance, formatClock } from "../../lib/format";
import type { RealtimeState } from "../../lib/use-realtime";

function Clock() {
  // Rendered in the browser only, so the server's time never mismatches the page's.
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <time className="status-clock">{now ? formatClock(now) : "--:--:--"}</time>;
}

type StatusLineProps = {
  operator: Operator;
  balance: number | "unlimited";
  mode: string;
  /** Keys typed while the page loaded that nothing could take (app/lib/key-buffer.ts), shown for a while. */
  refusedKeys: string | null;
  realtime: RealtimeState;
  pending: PendingCounts;
  muted: boolean;
  onToggleMute: () => void;
};

const REALTIME_LABEL: Record<RealtimeState, string> = { connecting: "◌ connecting", live: "● live", offline: "○ offline" };

export function StatusLine({ operator, balance, mode, refusedKeys, realtime, pending, muted, onToggleMute }: StatusLineProps) {
  return (
    <footer className="status-line" aria-label="Status line">
      <span className="status-mode" data-mode={mode}>
        {mode}
      </span>
      {refusedKeys && (
        <span className="status-refused" role="status">
          not applied: {refusedKeys}
        </span>
      )}
      <span className="status-user">
        {operator.username} <span className="dim">[{ROLE_LABEL[operator.role]}]</span>
      </span>
      <span className="status-balance" aria-label="Balance">
        bal {formatBalance(balance)}
      </span>
      {pending.deposits !== null && (
        <Link to="/deposits" className="status-count" aria-label="Pending deposits">
          dep <span className="pending">{pending.deposits}</span>
        </Link>
      )}
      {pending.withdraws !== null && (
        <Link to="/withdraws" className="status-count" aria-label="Pending withdrawals">
          wd <span className="pending">{pending.withdraws}</span>
        </Link>
      )}
      {pending.approvals !== null && pending.approvals > 0 && (
        <Link to="/approvals" className="status-count" aria-label="Pending approvals">
          4e <span className="pending">{pending.approvals}</span>
        </Link>
      )}
      {pending.jobs !== null && pending.jobs > 0 && (
        <Link to="/jobs" className="status-count" aria-label="Unfinished jobs">
          jobs <span className="pending">{pending.jobs}</span>
        </Link>
      )}
      <span className="status-spacer" />
      <span className={`status-realtime ${realtime}`} aria-label="Realtime connection">
        {REALTIME_LABEL[realtime]}
      </span>
      <button type="button" className="status-mute" aria-pressed={muted} onClick={onToggleMute} aria-label="Mute spoken alerts">
        {muted ? "alerts muted" : "alerts on"}
      </button>
      <span className="dim">? keys · Ctrl+K commands</span>
      <Clock />
    </footer>
  );
}
