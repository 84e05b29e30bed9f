/** A confirmed bulk or settlement job, written to the console's store before its first chunk. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { startJob } from "~/lib/job-checks.server";

export const action = ({ request, context }: ActionFunctionArgs) => startJob(request, context);
