/**
 * Bank Details (docs/product.md §2.12, §5): the bank fields and the UPI entries, each a value and a token.
 * Entries are added and removed here and saved together; Remove is disabled on the last entry.
 */
import { useFetcher } from "@remix-run/react";
import { useRef, useState } from "react";
import type { BankSettings } from "../../../protocol/wire";
import type { Outcome } from "../../lib/feedback";
import { SETTING_BOUNDS } from "../../../protocol/rules";
import { bankDetailsInput, bankDetailsSchema } from "../../lib/forms/settings";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { checkBeforeSend } from "../ui/forms";

const BANK_FIELDS = [
  { name: "bankName", label: "Bank Name" },
  { name: "holder", label: "Account Holder" },
  { name: "accNo", label: "Account Number" },
  { name: "ifsc", label: "IFSC" },
  { name: "usdt", label: "USDT Address" },
] as const;

export function BankDetailsForm({ bank }: { bank: BankSettings }) {
  const fetcher = useFetcher<Outcome>();
  useAnnouncedOutcome(fetcher.data);
  // Each entry keeps a key of its own, so removing one keeps what was typed in the others.
  const nextKey = useRef(bank.upiId.length);
  const [entries, setEntries] = useState(() => bank.upiId.map((entry, index) => ({ key: index, ...entry })));
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" className="form narrow" aria-label="Bank Details" onSubmit={checkBeforeSend(bankDetailsSchema, bankDetailsInput)}>
      {BANK_FIELDS.map((field) => (
        <label key={field.name}>
          {field.label}
          <input name={field.name} defaultValue={bank[field.name]} autoComplete="off" />
        </label>
      ))}
      <fieldset className="form">
        <legend>UPI</legend>
        {entries.map((entry, index) => (
          <div key={entry.key} className="upi-entry" role="group" aria-label={`UPI entry ${index + 1}`}>
            <label>
              UPI Id
              <input name="upiValue" defaultValue={entry.value} autoComplete="off" />
            </label>
            <label>
              Token
              <input name="upiToken" defaultValue={entry.token} autoComplete="off" />
            </label>
            <button
              type="button"
              disabled={entries.length <= SETTING_BOUNDS.upiEntries.min}
              onClick={() => setEntries((current) => current.filter((other) => other.key !== entry.key))}
            >
              Remove
            </button>
          </div>
        ))}
        <button
          type="button"
          disabled={entries.length >= SETTING_BOUNDS.upiEntries.max}
          onClick={() => setEntries((current) => [...current, { key: nextKey.current++, value: "", token: "" }])}
        >
          Add UPI
        </button>
      </fieldset>
      <button type="submit" disabled={busy}>
        {busy ? "Saving…" : "Save"}
      </button>
    </fetcher.Form>
  );
}
