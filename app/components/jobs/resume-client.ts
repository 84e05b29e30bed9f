/** A stored job rebuilt in the browser to resume it: what each item sends comes from the store. */
import { accountBulkJob, type AccountItemPayload, type Submit } from "../../lib/account-jobs";
import { resumedOf, resumeStoredJob } from "../../lib/jobs";
import type { SettlementScope } from "../../lib/forms/settlement";
import type { BulkJob } from "../../machines/bulk.machine";
import { marketsJob, marketsOfStored, type StoredSettlement } from "../../machines/settlement.machine";
import { postChunk } from "../bets/settle-client";

/** The job as it now stands (in-flight items checked by the server), ready for BulkRun. */
export async function resumableJob(id: string, submit: Submit): Promise<BulkJob> {
  const stored = await resumeStoredJob(id);
  if (stored.kind === "settle") {
    const payloads = stored.items.map((item) => item.payload as StoredSettlement<SettlementScope>);
    return marketsJob(stored.title, "", marketsOfStored(payloads), postChunk, resumedOf(stored));
  }
  const items = stored.items.map(({ key, label, requestId, payload }) => ({ key, label, requestId, payload: payload as AccountItemPayload }));
  return accountBulkJob({ title: stored.title, question: "", kind: stored.kind, items, submit, resumed: resumedOf(stored) });
}
