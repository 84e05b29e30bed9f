/**
 * Add User / Add Panel (docs/product.md §2.6, §4, §5). Flags start from the operator's own and those it does
 * not hold are disabled; switching a flag off clears its share; Add stays disabled until the
 * required fields are filled (for a panel: a role and at least 6 shares).
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { GAME_FLAGS, type GameFlag } from "../../../protocol/wire";
import type { NewAccountForm } from "../../lib/accounts.server";
import type { Outcome } from "../../lib/feedback";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { addAccountInput, addAccountSchema, MIN_PARTNER_SHARES } from "../../lib/forms/add-account";
import { checkBeforeSend, Switch } from "../ui/forms";
import { Overlay } from "../ui/Overlay";

type Props = { isPartner: boolean; action: string; onClose: () => void };

export function AddAccountDialog({ isPartner, action, onClose }: Props) {
  const start = useFetcher<NewAccountForm>();
  const save = useFetcher<Outcome>();
  useAnnouncedOutcome(save.data, onClose);
  const [fields, setFields] = useState({ username: "", mobNo: "", password: "", repeatPassword: "", role: "" });
  const [flags, setFlags] = useState<Partial<Record<GameFlag, boolean>> | null>(null);
  const [shares, setShares] = useState<Partial<Record<GameFlag, string>>>({});
  const { load } = start;

  useEffect(() => load("/resources/accounts/new-form"), [load]);
  // docs/product.md §4: the new account's flags start from the operator's own.
  useEffect(() => {
    if (start.data) setFlags(start.data.permissions);
  }, [start.data]);

  const held = start.data?.permissions ?? {};
  const toggle = (flag: GameFlag) => {
    const on = !flags?.[flag];
    setFlags((current) => ({ ...current, [flag]: on }));
    // docs/product.md §4: switching a flag off clears its share.
    if (!on) setShares((current) => ({ ...current, [flag]: "" }));
  };
  const filledShares = Object.values(shares).filter((value) => value?.trim()).length;
  const ready =
    fields.username.trim() &&
    fields.password &&
    fields.repeatPassword &&
    (!isPartner || (fields.role && filledShares >= MIN_PARTNER_SHARES));

  const submit = checkBeforeSend(addAccountSchema, addAccountInput);
  const title = isPartner ? "Add Panel" : "Add User";
  const text = (name: keyof typeof fields, label: string, type = "text") => (
    <label>
      {label}
      <input
        name={name}
        type={type}
        autoComplete={type === "password" ? "new-password" : "off"}
        value={fields[name]}
        onChange={(event) => setFields((current) => ({ ...current, [name]: event.target.value }))}
      />
    </label>
  );

  return (
    <Overlay label={title} onClose={onClose} className="dialog">
      <save.Form method="post" action={action} className="form add-account" onSubmit={submit}>
        <h2>{title}</h2>
        <input type="hidden" name="intent" value="addAccount" />
        <input type="hidden" name="isPartner" value={String(isPartner)} />
        {text("username", "Username")}
        {text("mobNo", "Mob No.")}
        {text("password", "Password", "password")}
        {text("repeatPassword", "Confirm Password", "password")}
        {isPartner && (
          <label>
            Role
            <select
              name="role"
              value={fields.role}
              onChange={(event) => setFields((current) => ({ ...current, role: event.target.value }))}
            >
              <option value="">Choose a role</option>
              {start.data?.roles.map((role) => (
                <option key={role._id} value={role._id}>
                  {role.role}
                </option>
              ))}
            </select>
          </label>
        )}
        <fieldset className="flags">
          <legend>Permissions</legend>
          {flags === null ? (
            <p className="dim">Loading…</p>
          ) : (
            GAME_FLAGS.map((flag) => (
              <div key={flag} className="flag-row">
                <Switch label={flag} name="flag" value={flag} checked={Boolean(flags[flag])} disabled={!held[flag]} onToggle={() => toggle(flag)} />
                {isPartner && (
                  <input
                    name={`share.${flag}`}
                    aria-label={`${flag} share`}
                    inputMode="decimal"
                    placeholder="share %"
                    disabled={!flags[flag]}
                    value={shares[flag] ?? ""}
                    onChange={(event) => setShares((current) => ({ ...current, [flag]: event.target.value }))}
                  />
                )}
              </div>
            ))
          )}
        </fieldset>
        <div className="dialog-buttons">
          <button type="submit" disabled={!ready || save.state !== "idle"}>
            Add
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </save.Form>
    </Overlay>
  );
}
