/** A job made from a file (issue 34): its result CSV, every line of the file with its outcome. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { jobResultCsv } from "~/lib/bulk-file.server";

export const loader = ({ request, context, params }: LoaderFunctionArgs) => jobResultCsv(request, context, params.id!);
