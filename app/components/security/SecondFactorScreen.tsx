/**
 * Second Factor (issue 30): the operator's own factors. `t` adds an authenticator app (its key
 * shown once, confirmed with one code), `k` adds a passkey, and each passkey has its Remove
 * button. A super admin also sees which roles must use a factor; the palette changes it
 * ("Second factor policy…") and resets another operator's factors ("Reset second factor…").
 */
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useState, type KeyboardEvent } from "react";
import type { SecondFactorData } from "../../lib/mfa/screen.server";
import { announce, notifyError, type Outcome } from "../../lib/feedback";
import { passkeyNameSchema } from "../../lib/forms/second-factor";
import { postCeremony, registerPasskey, type CeremonyAnswer } from "../../lib/second-factor-client";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { useQuietRevalidate } from "../../lib/use-quiet-revalidate";
import { EnrolTotp, RecoveryCodes } from "./EnrolTotp";

const ROLE_NAMES: Record<number, string> = { 1: "super admin", 2: "staff", 3: "partner" };

export function SecondFactorScreen() {
  const { enrolment, passkeys, policy, mayConfigure } = useLoaderData<SecondFactorData>();
  const revalidate = useQuietRevalidate();
  const remove = useFetcher<Outcome>();
  useAnnouncedOutcome(remove.data);
  const [adding, setAdding] = useState<"totp" | "passkey" | null>(null);
  const [passkeyName, setPasskeyName] = useState("");
  const [codes, setCodes] = useState<string[] | null>(null);

  const done = (answer: CeremonyAnswer) => {
    setAdding(null);
    announce({ ok: answer.ok, message: answer.message ?? "" });
    if (Array.isArray(answer.recoveryCodes)) setCodes(answer.recoveryCodes as string[]);
    revalidate();
  };
  const addPasskey = async () => {
    const name = passkeyNameSchema.safeParse(passkeyName);
    if (!name.success) return notifyError(name.error.issues[0]!.message);
    const answer = await registerPasskey(name.data);
    if (!answer.ok) return notifyError(answer.message ?? "The passkey was not added");
    setPasskeyName("");
    done(answer);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (adding || codes || event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "t" && !enrolment.totp) setAdding("totp");
    else if (event.key === "k") setAdding("passkey");
    else return;
    event.preventDefault();
  };

  if (codes) return <RecoveryCodes codes={codes} continueLabel="I have kept them" onContinue={() => setCodes(null)} />;
  return (
    <section className="second-factor-screen" onKeyDown={onKeyDown} tabIndex={-1}>
      <p>
        {enrolment.enrolled
          ? `You sign in with ${[enrolment.totp && "an authenticator app", enrolment.passkeys > 0 && `${enrolment.passkeys} passkey(s)`].filter(Boolean).join(" and ")}; ${enrolment.recoveryLeft} recovery code(s) left.`
          : "You have no second factor yet."}
      </p>
      <div className="toolbar">
        {!enrolment.totp && (
          <button type="button" onClick={() => setAdding("totp")} autoFocus={!enrolment.enrolled}>
            <kbd>t</kbd> Add an authenticator app
          </button>
        )}
        <button type="button" onClick={() => setAdding("passkey")}>
          <kbd>k</kbd> Add a passkey
        </button>
      </div>
      {adding === "totp" && (
        <EnrolTotp startIntent="totpStart" confirm={(code) => postCeremony({ intent: "totpConfirm", code })} onDone={done} />
      )}
      {adding === "passkey" && (
        <form
          aria-label="Add a passkey"
          onSubmit={(event) => {
            event.preventDefault();
            void addPasskey();
          }}
        >
          <label>
            Passkey name
            <input autoFocus value={passkeyName} maxLength={40} onChange={(event) => setPasskeyName(event.target.value)} />
          </label>
          <button type="submit">Add passkey</button>
        </form>
      )}
      {passkeys.length > 0 && (
        <table aria-label="Passkeys">
          <thead>
            <tr>
              <th>Passkey</th>
              <th>Added</th>
              <th>Last used</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {passkeys.map((passkey) => (
              <tr key={passkey.id}>
                <td>{passkey.name}</td>
                <td>{passkey.createdAt.slice(0, 16).replace("T", " ")}</td>
                <td>{passkey.lastUsedAt?.slice(0, 16).replace("T", " ") ?? "never"}</td>
                <td>
                  <remove.Form method="post">
                    <input type="hidden" name="intent" value="removePasskey" />
                    <input type="hidden" name="id" value={passkey.id} />
                    <button type="submit">Remove</button>
                  </remove.Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {mayConfigure && (
        <p className="dim">
          Required of: {policy.roles.map((role) => ROLE_NAMES[role] ?? role).join(", ") || "no role"}
          {policy.isDefault ? " (the default)" : ""}. Change it with “Second factor policy…” in the palette; “Reset second factor…” resets another operator's.
        </p>
      )}
    </section>
  );
}
