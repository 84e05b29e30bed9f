/** Resuming a stored job: its items in flight checked against the API, then every item as it stands. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { resumeJob } from "~/lib/job-checks.server";

export const action = ({ request, context, params }: ActionFunctionArgs) => resumeJob(request, context, params.id ?? "");
