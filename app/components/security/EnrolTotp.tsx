/**
 * Adding an authenticator app (issue 30): the key as a QR code and as text, shown once as it is
 * made, confirmed with one code (the field has focus; Enter sends). Then the recovery codes, once.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { postCeremony, type CeremonyAnswer } from "../../lib/second-factor-client";

type Props = {
  /** `enrolStart` at sign-in, `totpStart` when signed in. */
  startIntent: "enrolStart" | "totpStart";
  /** Sends the code; answers the server's answer. */
  confirm: (code: string) => Promise<CeremonyAnswer>;
  onDone: (answer: CeremonyAnswer) => void;
};

export function EnrolTotp({ startIntent, confirm, onDone }: Props) {
  const [started, setStarted] = useState<{ key: string; qr: string } | { problem: string } | null>(null);
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    void postCeremony({ intent: startIntent }).then((answer) =>
      setStarted(answer.ok ? { key: String(answer.key), qr: String(answer.qr) } : { problem: answer.message ?? "Could not start" }),
    );
  }, [startIntent]);
  useEffect(() => field.current?.focus(), [started]);
  if (!started) return <p aria-busy="true">Making a key…</p>;
  if ("problem" in started) return <p role="alert">{started.problem}</p>;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const answer = await confirm(code.trim());
    setBusy(false);
    if (answer.ok) return onDone(answer);
    setProblem(answer.message ?? "Not accepted");
    setCode("");
    field.current?.focus();
  };
  return (
    <form className="enrol-totp" onSubmit={(event) => void submit(event)} aria-label="Add an authenticator app">
      <p>Scan this with your authenticator app, or type the key into it.</p>
      <img src={started.qr} alt="QR code of the authenticator key" width={180} height={180} />
      <p>
        Key: <code data-testid="totp-key">{started.key}</code>
      </p>
      <label>
        Code from the app
        <input ref={field} name="code" value={code} inputMode="numeric" maxLength={6} autoComplete="one-time-code" onChange={(event) => setCode(event.target.value)} />
      </label>
      {problem ? <p role="alert">{problem}</p> : null}
      <button type="submit" disabled={busy || code.trim().length !== 6}>
        {busy ? "Checking…" : "Confirm"}
      </button>
    </form>
  );
}

/** The recovery codes, shown once; Enter (the focused button) goes on. */
export function RecoveryCodes({ codes, onContinue, continueLabel }: { codes: readonly string[]; onContinue: () => void; continueLabel: string }) {
  return (
    <section aria-label="Recovery codes" className="recovery-codes">
      <h2>Recovery codes</h2>
      <p>Each signs you in once if you lose your authenticator. Keep them somewhere safe: they are not shown again.</p>
      <ol>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" autoFocus onClick={onContinue}>
        {continueLabel}
      </button>
    </section>
  );
}
