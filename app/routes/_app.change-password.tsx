/** docs/product.md §2.10: change own password. The same schema checks the form here and in the action. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { SchemaForm, type FieldSpec } from "~/components/ui/forms";
import { RouteErrorBoundary } from "~/components/ui/RouteError";
import { MESSAGES } from "~/lib/constants";
import { ownPasswordSchema } from "~/lib/forms/own-password";
import { readForm, runForm } from "~/lib/forms/run-form.server";
import { titleMeta } from "~/lib/page";
import { orRouteError } from "~/lib/route-errors.server";
import { screenHandle } from "~/lib/screens";
import { callAsOperator, endSessionsOf, requireSession } from "~/lib/session.server";

export const handle = screenHandle("change-password");
export const meta = titleMeta;
export const ErrorBoundary = RouteErrorBoundary;
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

/** No data of its own: the operator's record is read so that a session ended elsewhere is found here too. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await orRouteError(callAsOperator(request, context, "currentAdmin", undefined));
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  return runForm(Object.fromEntries(await readForm(request)), ownPasswordSchema, async ({ curPassword, password }) => {
    await callAsOperator(request, context, "changePassword", { curPassword, password });
    // The operator's other console sessions end with the old password (ADR 0010).
    const session = await requireSession(request, context);
    await endSessionsOf(context, session.username, { except: session.id, reason: "password changed" });
    return MESSAGES.passwordChanged;
  });
}

const FIELDS: FieldSpec[] = [
  { name: "curPassword", label: "Old Password", type: "password", autoComplete: "current-password" },
  { name: "password", label: "New Password", type: "password", autoComplete: "new-password" },
  { name: "confirmPassword", label: "Confirm Password", type: "password", autoComplete: "new-password" },
];

// docs/product.md §5: on a mismatch the message shows and nothing is sent (the schema checks before posting).
export default function ChangePassword() {
  return (
    <SchemaForm
      label="Change password"
      className="form narrow"
      schema={ownPasswordSchema}
      fields={FIELDS}
      submitLabel="Change Password"
      busyLabel="Saving…"
    />
  );
}
