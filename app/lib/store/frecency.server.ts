/**
 * The palette's frecency in the console's store (migration 013, issue 32). A use is one upsert
 * that decays the earlier score in the database's clock, so two instances recording at once both
 * count; each operator keeps at most FRECENCY_KEPT commands, the least used dropped.
 */
import { sql, type RawBuilder } from "kysely";
import { FRECENCY_HALF_LIFE_HOURS, type Frecency } from "../frecency";
import type { ConsoleStore } from "./schema";

/** More than the registry's commands: ids the palette no longer has fall off on their own. */
export const FRECENCY_KEPT = 200;

const halfLifeSeconds = FRECENCY_HALF_LIFE_HOURS * 3600;

/** What is left now of `score` uses decayed to `usedAt`, in the database's clock (app/lib/frecency.ts `decayedAt`). */
const decayedNow = (score: RawBuilder<number>, usedAt: RawBuilder<Date>) =>
  sql<number>`${score} * power(0.5, greatest(0, extract(epoch from now() - ${usedAt})) / ${halfLifeSeconds})`;

export async function recordUse(store: ConsoleStore, operator: string, command: string): Promise<void> {
  await store.transaction().execute(async (trx) => {
    await sql`
      insert into console_frecency (operator, command, score, used_at) values (${operator}, ${command}, 1, now())
      on conflict (operator, command) do update
        set score = ${decayedNow(sql.ref("console_frecency.score"), sql.ref("console_frecency.used_at"))} + 1,
            used_at = now()`.execute(trx);
    await sql`
      delete from console_frecency where operator = ${operator} and command in (
        select command from console_frecency where operator = ${operator}
         order by ${decayedNow(sql.ref("score"), sql.ref("used_at"))} desc offset ${FRECENCY_KEPT})`.execute(trx);
  });
}

/** The operator's uses by command id. */
export async function usesOf(store: ConsoleStore, operator: string): Promise<Record<string, Frecency>> {
  const rows = await store.selectFrom("console_frecency").select(["command", "score", "used_at"]).where("operator", "=", operator).execute();
  return Object.fromEntries(rows.map((row) => [row.command, { score: Number(row.score), usedAt: row.used_at.getTime() }]));
}
