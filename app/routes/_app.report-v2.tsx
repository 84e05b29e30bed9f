/** docs/product.md §2.7 Report V2: direct users, indirect users (sub-panels) and the partner's own share. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GameCards } from "~/components/reports/GameCards";
import { ReportScreen } from "~/components/reports/ReportScreen";
import { loadReport } from "~/lib/reports.server";
import { screenHandle } from "~/lib/screens";

export { RouteErrorBoundary as ErrorBoundary } from "~/components/ui/RouteError";
export { titleMeta as meta } from "~/lib/page";
export const handle = screenHandle("report-v2");
export { screenClientLoader as clientLoader } from "~/lib/screen-cache";

export const loader = ({ request, context }: LoaderFunctionArgs) => loadReport(request, context, "reportV2");

export default function ReportV2() {
  const { query, report } = useLoaderData<typeof loader>();
  return (
    <ReportScreen title="Report V2" query={query} daily={report.daily}>
      <GameCards title="Direct users" figures={report.direct} />
      {report.indirect && <GameCards title="Indirect users" figures={report.indirect} />}
      {report.myShare && <GameCards title="My share: direct plus indirect users" figures={report.myShare} />}
    </ReportScreen>
  );
}
