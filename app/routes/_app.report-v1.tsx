/** docs/product.md §2.7 Report V1: the book's profit per game for the range, and the total. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GameCards } from "~/components/reports/GameCards";
import { ReportScreen } from "~/components/reports/ReportScreen";
import { loadReport } from "~/lib/reports.server";
import { screenHandle } from "~/lib/screens";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("report-v1");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadReport(request, context, "reportV1");

export default function ReportV1() {
  const { query, report } = useLoaderData<typeof loader>();
  return (
    <ReportScreen title="Report V1" query={query} daily={report.daily}>
      <GameCards title="Profit" figures={report.profit} total={report.profit2.total} />
    </ReportScreen>
  );
}
