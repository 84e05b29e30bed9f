/** docs/product.md §2.12: Bank Details, the bank fields and the UPI entries. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { BankDetailsForm } from "~/components/settings/BankDetailsForm";
import { screenHandle } from "~/lib/screens";
import { loadBankDetails, saveBankDetails } from "~/lib/settings.server";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("bank-details");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadBankDetails(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => saveBankDetails(request, context);

export default function BankDetails() {
  const { bank } = useLoaderData<typeof loader>();
  // A save that changes the stored entries starts the form again from them.
  return <BankDetailsForm key={JSON.stringify(bank)} bank={bank} />;
}
