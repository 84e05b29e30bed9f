/** The browser's second-factor calls: sign-in's second step, enrolment, passkeys, re-authentication (issue 30). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { secondFactorCeremony } from "~/lib/mfa/ceremonies.server";

export const action = ({ request, context }: ActionFunctionArgs) => secondFactorCeremony(request, context);
