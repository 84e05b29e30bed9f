/**
 * The re-authentication prompt (issue 30): opened where an action was answered `reauth`, over the
 * screen the operator is on, so nothing they were doing is lost; once a factor is accepted the
 * action is sent again (use-action-runner.ts). Esc gives up and the action is not performed.
 */
import { useEffect, useState } from "react";
import { answerFactorPrompt, onFactorPrompt, passkeyAnswer, postCeremony } from "../../lib/second-factor-client";
import { Overlay } from "./Overlay";
import { SecondFactorForm } from "./SecondFactorForm";

export function ReauthDialog() {
  const [methods, setMethods] = useState<{ totp: boolean; passkey: boolean } | null>(null);
  useEffect(
    () =>
      onFactorPrompt((open) => {
        if (!open) return setMethods(null);
        void postCeremony({ intent: "myFactors" }).then((answer) =>
          answer.ok ? setMethods({ totp: answer.totp === true, passkey: answer.passkey === true }) : answerFactorPrompt(false),
        );
      }),
    [],
  );
  if (!methods) return null;
  return (
    <Overlay label="Confirm it is you" onClose={() => answerFactorPrompt(false)} className="dialog">
      <h2>Confirm it is you</h2>
      <p className="dim">This change needs your second factor (once every five minutes).</p>
      <SecondFactorForm
        methods={methods}
        submitLabel="Confirm"
        passkey={() => passkeyAnswer("reauthOptions")}
        send={async (answer) => {
          const result = await postCeremony({ intent: "reauth", ...answer });
          if (result.ok) answerFactorPrompt(true);
          return result.ok ? null : (result.message ?? "Not confirmed");
        }}
      />
    </Overlay>
  );
}
