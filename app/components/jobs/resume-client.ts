/** A stored job rebuilt in the browser to resume it: what each item sends comes from the store. */
import { resumedOf, resumeStoredJob } from "../../lib/jobs";
import type { SettlementScope } from "../../lib/forms/settlement";
import type { BulkJob } from "../../machines/bulk.machine";
import { marketsJob, marketsOfStored, type StoredSettlement } from "../../machines/settlement.machine";
import { postChunk } from "../bets/settle-client";

/** The job as it now stands (in-flight items checked by the server), ready for BulkRun; null for a kind not resumable here. */
export async function resumableJob(id: string): Promise<BulkJob | null> {
  const stored = await resumeStoredJob(id);
  if (stored.kind !== "settle") return null;
  const payloads = stored.items.map((item) => item.payload as StoredSettlement<SettlementScope>);
  return marketsJob(stored.title, "", marketsOfStored(payloads), postChunk, resumedOf(stored));
}
