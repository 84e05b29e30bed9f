/**
 * Sign-in's second step on the login screen (issue 30): the operator gives their factor, or, when
 * the policy requires one they do not have, adds an authenticator app; then the console opens
 * where they were going.
 */
import { useNavigate } from "@remix-run/react";
import { useState } from "react";
import { SECOND_STEP_INTENT } from "../../lib/forms/second-factor";
import type { SecondStepView } from "../../lib/mfa/sign-in.server";
import { passkeyAnswer, postCeremony, type CeremonyAnswer } from "../../lib/second-factor-client";
import { SecondFactorForm } from "../ui/SecondFactorForm";
import { EnrolTotp, RecoveryCodes } from "./EnrolTotp";

/** `refused`: why the code posted as a plain form (before hydration) was not accepted. */
export function SecondStep({ view, redirectTo, refused }: { view: SecondStepView; redirectTo: string | undefined; refused: string | undefined }) {
  const navigate = useNavigate();
  const [codes, setCodes] = useState<string[] | null>(null);
  const enter = (answer: CeremonyAnswer) => navigate(String(answer.redirectTo ?? "/"), { replace: true });
  const [target, setTarget] = useState<string>("/");
  if (codes) return <RecoveryCodes codes={codes} continueLabel="Continue to the console" onContinue={() => navigate(target, { replace: true })} />;
  return (
    <section className="second-step" aria-labelledby="second-step-title">
      <h2 id="second-step-title">{view.enrol ? `Set up a second factor, ${view.username}` : `Second factor for ${view.username}`}</h2>
      {view.enrol ? (
        <EnrolTotp
          startIntent="enrolStart"
          confirm={(code) => postCeremony({ intent: "enrolConfirm", code, redirectTo })}
          onDone={(answer) => {
            setTarget(String(answer.redirectTo ?? "/"));
            setCodes(answer.recoveryCodes as string[]);
          }}
        />
      ) : (
        <SecondFactorForm
          methods={{ totp: view.totp, passkey: view.passkey }}
          submitLabel="Sign in"
          postedWith={{ fields: { intent: SECOND_STEP_INTENT, redirectTo: redirectTo ?? "" }, refused }}
          passkey={() => passkeyAnswer("signInOptions")}
          send={async (answer) => {
            const result = await postCeremony({ intent: "signIn", ...answer, redirectTo });
            if (result.ok) enter(result);
            else if (result.expired) navigate("/login", { replace: true });
            return result.ok ? null : (result.message ?? "Not accepted");
          }}
        />
      )}
    </section>
  );
}
