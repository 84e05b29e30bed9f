/** Bulk from file (issue 34): a pasted or chosen file read and classified line by line; nothing is stored or sent. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { previewBulkFile } from "~/lib/bulk-file.server";

export const action = ({ request, context }: ActionFunctionArgs) => previewBulkFile(request, context);
