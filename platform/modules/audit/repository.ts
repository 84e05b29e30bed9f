/** The audit trail: who changed which accounts or settings, with the values before and after. */
import type { Db } from "../../db/index.js";
import type { AuditChange, AuditTargetKind } from "../../db/schema.js";

/** `targetIds`: account ids, or a setting's key; `change`: the value before and after, where one changed. */
export async function recordAudit(
  db: Db,
  entry: { actorId: bigint; action: string; targetKind: AuditTargetKind; targetIds: (bigint | string)[]; change?: AuditChange },
): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      actor_id: entry.actorId,
      action: entry.action,
      target_kind: entry.targetKind,
      target_ids: JSON.stringify(entry.targetIds.map(String)),
      ...(entry.change ? { change: JSON.stringify(entry.change) } : {}),
    })
    .execute();
}
