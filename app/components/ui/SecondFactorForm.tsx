/**
 * The second factor asked for (issue 30), keyboard first: the code field has focus and Enter
 * sends it; Alt+P uses a passkey, Alt+R switches to a recovery code (and back). Used by sign-in's
 * second step and by the re-authentication prompt; `send` answers a refusal's message, or null.
 * Given `postedWith`, it is also a real POST form, so a code typed and sent before the page hydrated
 * (a field types natively then, docs/ux.md "Keys typed early") still signs in.
 */
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { notifyError } from "../../lib/feedback";
import { firstIssue } from "../../lib/forms/first-issue";
import { factorAnswerSchema, type FactorAnswer } from "../../lib/forms/second-factor";
import { useHydrated } from "../../lib/use-hydrated";

type Props = {
  /** Which factors the operator has: a passkey offers the passkey button, a key the code field. */
  methods: { totp: boolean; passkey: boolean };
  send: (answer: FactorAnswer) => Promise<string | null>;
  /** A passkey's signature, or why there is none. */
  passkey: () => Promise<FactorAnswer | string>;
  submitLabel: string;
  /** The hidden fields that make it a plain POST form to the current address, and the refusal that answered one. */
  postedWith?: { fields: Record<string, string>; refused?: string };
};

export function SecondFactorForm({ methods, send, passkey, submitLabel, postedWith }: Props) {
  const [method, setMethod] = useState<"totp" | "recovery">(methods.totp ? "totp" : "recovery");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(postedWith?.refused ?? null);
  // Until hydration the browser submits a posted form itself, so its button must not start disabled.
  const hydrated = useHydrated();
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), [method]);

  const run = async (answer: FactorAnswer | string) => {
    if (typeof answer === "string") return setProblem(answer);
    setBusy(true);
    const refusal = await send(answer);
    setBusy(false);
    setProblem(refusal);
    if (refusal) {
      setCode("");
      field.current?.focus();
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = factorAnswerSchema.safeParse({ method, code });
    if (!parsed.success) return notifyError(firstIssue(parsed.error));
    void run(parsed.data);
  };
  const usePasskey = async () => {
    setBusy(true);
    const answer = await passkey();
    setBusy(false);
    await run(answer);
  };
  const toggleRecovery = () => {
    setCode("");
    setMethod((current) => (current === "recovery" && methods.totp ? "totp" : "recovery"));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "p" && methods.passkey) void usePasskey();
    else if (key === "r") toggleRecovery();
    else return;
    event.preventDefault();
  };
  const label = method === "totp" ? "Code from your authenticator app" : "Recovery code";
  return (
    <form className="second-factor-form" method={postedWith ? "post" : undefined} onSubmit={submit} onKeyDown={onKeyDown} aria-label="Second factor">
      {postedWith &&
        Object.entries({ ...postedWith.fields, factor: method }).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
      <label>
        {label}
        <input
          ref={field}
          name="code"
          value={code}
          autoFocus
          autoComplete="one-time-code"
          inputMode={method === "totp" ? "numeric" : "text"}
          maxLength={method === "totp" ? 6 : 32}
          onChange={(event) => setCode(event.target.value)}
        />
      </label>
      {problem ? <p role="alert">{problem}</p> : null}
      <button type="submit" disabled={busy || ((hydrated || !postedWith) && !code.trim())} aria-busy={busy}>
        {busy ? "Checking…" : submitLabel}
      </button>
      <div className="second-factor-ways">
        {methods.passkey && (
          <button type="button" onClick={() => void usePasskey()} disabled={busy}>
            Use a passkey <kbd>Alt+P</kbd>
          </button>
        )}
        <button type="button" onClick={toggleRecovery} disabled={busy}>
          {method === "recovery" && methods.totp ? "Use a code from the app" : "Use a recovery code"} <kbd>Alt+R</kbd>
        </button>
      </div>
    </form>
  );
}
