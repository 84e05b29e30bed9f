/**
 * The confirmation of a decision (docs/product.md §2.11): "Are you sure you want to success/fail this
 * deposit?" with Yes (`y`) and No (`n`), the deposit bonuses (with the site's bonus limits
 * beside them), the value of 1 USDT and what the success credits in all (the figure four-eyes
 * measures), or a withdrawal's remark. Numeric fields take `y` / `n` as answers, since they cannot hold letters.
 */
import type { KeyboardEvent } from "react";
import { DEPOSIT_TYPE, type BonusLimits, type Coupon } from "../../../protocol/wire";
import type { DecisionField, DecisionForm, PendingRequest } from "../../machines/approval.machine";
import { formatMoney } from "../../lib/format";
import { creditOfDecision } from "../../lib/forms/decision";
import { REMARK_MAX } from "../../lib/constants";
import { Overlay } from "../ui/Overlay";

type Props = {
  request: PendingRequest;
  decision: 1 | 2;
  form: DecisionForm;
  /** Null when the upstream does not say. */
  bonusLimits: BonusLimits | null;
  /** Null when the operator may not read them. */
  coupons: Coupon[] | null;
  error: string | null;
  busy: boolean;
  onEdit: (field: DecisionField, value: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
};

const BONUS_FIELDS: ReadonlyArray<readonly [DecisionField, string]> = [
  ["mainInrBonus", "Main bonus (INR)"],
  ["mainPrnBonus", "Main bonus (%)"],
  ["inrBonus", "Bonus (INR)"],
  ["prnBonus", "Bonus (%)"],
];

/** What the success credits as typed: the USDT rate applied, bonuses and the coupon's included. */
function creditLine(request: PendingRequest, form: DecisionForm, coupons: Coupon[] | null): string {
  const code = request.couponCode ?? null;
  const coupon = code === null ? 0 : coupons && (coupons.find((one) => one.couponCode === code)?.bonus ?? 0);
  const credit = creditOfDecision({ request, decision: 1, form }, coupon ?? 0);
  if (credit === null) return request.type === DEPOSIT_TYPE.usdt ? "Credits: enter the value of 1 USDT" : "Credits: check the bonuses";
  return `Credits ${formatMoney(credit)}${coupon === null ? ` + coupon ${code}'s bonus (the coupons cannot be read)` : ""}`;
}

export function ApprovalDialog({ request, decision, form, bonusLimits, coupons, error, busy, onEdit, onConfirm, onCancel }: Props) {
  const noun = request.kind === "deposit" ? "deposit" : "withdrawal";
  const question = `Are you sure you want to ${decision === 1 ? "success" : "fail"} this ${noun}?`;
  const answerKeys = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLInputElement;
    const inText = target.tagName === "INPUT" && target.inputMode !== "decimal";
    if (event.key === "Enter" || (!inText && event.key === "y")) onConfirm();
    else if (!inText && event.key === "n") onCancel();
    else return;
    event.preventDefault();
  };
  const numeric = (field: DecisionField, label: string, autoFocus = false) => (
    <label key={field}>
      {label}
      <input
        inputMode="decimal"
        autoComplete="off"
        autoFocus={autoFocus}
        value={form[field]}
        onChange={(event) => onEdit(field, event.target.value.replace(/[^\d.]/g, ""))}
      />
    </label>
  );
  const depositSuccess = request.kind === "deposit" && decision === 1;
  return (
    <Overlay label={question} onClose={onCancel} className="dialog">
      <div className="form" onKeyDown={answerKeys} aria-busy={busy}>
        <h2>{question}</h2>
        <p className="dim">
          {request.username} · {formatMoney(request.amount)}
        </p>
        {depositSuccess && request.type === DEPOSIT_TYPE.usdt && numeric("inr", "Value of 1 USDT (INR)", true)}
        {depositSuccess && (
          <div className="bonus-grid">
            {BONUS_FIELDS.map(([field, label], index) => numeric(field, label, index === 0 && request.type !== DEPOSIT_TYPE.usdt))}
          </div>
        )}
        {depositSuccess && (
          <p aria-label="Credits" aria-live="polite">
            {creditLine(request, form, coupons)}
          </p>
        )}
        {depositSuccess && bonusLimits && (
          <p className="dim" aria-label="Bonus limits">
            Bonus limit: {bonusLimits.maxPercent}% of the deposit, {formatMoney(bonusLimits.maxInr)} per decision
          </p>
        )}
        {request.kind === "withdraw" && (
          <label>
            Remark
            <input
              autoFocus
              maxLength={REMARK_MAX}
              value={form.remark}
              onChange={(event) => onEdit("remark", event.target.value)}
            />
          </label>
        )}
        {error && (
          <p className="palette-error" role="alert">
            {error}
          </p>
        )}
        <div className="dialog-buttons">
          <button type="button" onClick={onConfirm} disabled={busy} autoFocus={!depositSuccess && request.kind === "deposit"}>
            <kbd>y</kbd> Yes
          </button>
          <button type="button" onClick={onCancel} disabled={busy}>
            <kbd>n</kbd> No
          </button>
        </div>
      </div>
    </Overlay>
  );
}
