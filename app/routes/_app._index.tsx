/** Home: who is signed in, with what, and how to drive the console. */
import { useRouteLoaderData } from "@remix-run/react";
import { Keys } from "~/components/ui/Keys";
import { RouteErrorBoundary } from "~/components/ui/RouteError";
import { ROLE_LABEL } from "~/lib/constants";
import { formatBalance } from "~/lib/format";
import { titleMeta } from "~/lib/page";
import { screenHandle } from "~/lib/screens";
import type { loader as shellLoader } from "./_app";

export const handle = screenHandle("home");
export const meta = titleMeta;
export const ErrorBoundary = RouteErrorBoundary;

export default function Home() {
  const shell = useRouteLoaderData<typeof shellLoader>("routes/_app");
  if (!shell) return null;
  const { operator, balance } = shell;
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
