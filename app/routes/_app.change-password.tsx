/** Spec §2.10: change own password. The same schema checks the form here and in the action. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { useFetcher } from "@remix-run/react";
import { useState, type FormEvent } from "react";
import { RouteErrorBoundary } from "~/components/ui/RouteError";
import { MESSAGES } from "~/lib/constants";
import { notifyError } from "~/lib/feedback";
import { firstIssue } from "~/lib/forms/first-issue";
import { ownPasswordSchema } from "~/lib/forms/own-password";
import { runForm } from "~/lib/forms/run-form.server";
import { titleMeta } from "~/lib/page";
import { screenHandle } from "~/lib/screens";
import { useAnnouncedOutcome } from "~/lib/use-announced-outcome";
import { callAsOperator } from "~/lib/session.server";

export const handle = screenHandle("change-password");
export const meta = titleMeta;
export const ErrorBoundary = RouteErrorBoundary;

export async function action({ request, context }: ActionFunctionArgs) {
  return runForm(Object.fromEntries(await request.formData()), ownPasswordSchema, async ({ curPassword, password }) => {
    await callAsOperator(request, context, "changePassword", { curPassword, password });
    return MESSAGES.passwordChanged;
  });
}

const FIELDS = [
  { name: "curPassword", label: "Old Password", autoComplete: "current-password" },
  { name: "password", label: "New Password", autoComplete: "new-password" },
  { name: "confirmPassword", label: "Confirm Password", autoComplete: "new-password" },
] as const;

type Values = Record<(typeof FIELDS)[number]["name"], string>;
const EMPTY: Values = { curPassword: "", password: "", confirmPassword: "" };

export default function ChangePassword() {
  const fetcher = useFetcher<typeof action>();
  const [values, setValues] = useState<Values>(EMPTY);
  const busy = fetcher.state !== "idle";
  useAnnouncedOutcome(fetcher.data, () => setValues(EMPTY));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    const form = ownPasswordSchema.safeParse(values);
    if (!form.success) {
      // Spec §5: on a mismatch the message shows and nothing is sent.
      event.preventDefault();
      notifyError(firstIssue(form.error));
    }
  };

  return (
    <fetcher.Form method="post" className="form narrow" onSubmit={submit} aria-label="Change password">
      {FIELDS.map((field) => (
        <label key={field.name}>
          {field.label}
          <input
            type="password"
            name={field.name}
            autoComplete={field.autoComplete}
            value={values[field.name]}
            onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
          />
        </label>
      ))}
      <button type="submit" disabled={busy || FIELDS.some((field) => !values[field.name])}>
        {busy ? "Saving…" : "Change Password"}
      </button>
    </fetcher.Form>
  );
}
