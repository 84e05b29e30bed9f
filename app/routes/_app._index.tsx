/** Home: who is signed in, with what, and how to drive the console. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Keys } from "~/components/ui/Keys";
import { RouteErrorBoundary } from "~/components/ui/RouteError";
import { ROLE_LABEL } from "~/lib/constants";
import { formatBalance } from "~/lib/format";
import { toOperator } from "~/lib/operator";
import { titleMeta } from "~/lib/page";
import { orRouteError } from "~/lib/route-errors.server";
import { screenHandle } from "~/lib/screens";
import { callAsOperator } from "~/lib/session.server";

export const handle = screenHandle("home");
export const meta = titleMeta;
export const ErrorBoundary = RouteErrorBoundary;
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

/** The operator's record, fresh: one upstream call, which also finds a session ended elsewhere. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const admin = await orRouteError(callAsOperator(request, context, "currentAdmin", undefined));
  return { operator: toOperator(admin), balance: admin.balance };
}

export default function Home() {
  const { operator, balance } = useLoaderData<typeof loader>();
  const flags = Object.keys(operator.flags);
  return (
    <section className="home" aria-labelledby="home-title">
      <h2 id="home-title">Signed in as {operator.username}</h2>
      <dl className="facts">
        <dt>role</dt>
        <dd>{ROLE_LABEL[operator.role]}</dd>
        <dt>balance</dt>
        <dd className="num">{formatBalance(balance)}</dd>
        <dt>flags</dt>
        <dd>{flags.length ? flags.join(" ") : <span className="dim">none</span>}</dd>
      </dl>
      <h3>Drive it from the keyboard</h3>
      <ul className="hints">
        <li>
          <Keys sequence="mod+k" /> or <kbd>:</kbd> opens the command palette
        </li>
        <li>
          <kbd>g</kbd> then a letter goes to a screen: <Keys sequence="g h" /> home, <Keys sequence="g c" /> change password
        </li>
        <li>
          <kbd>?</kbd> shows every key
        </li>
      </ul>
    </section>
  );
}
