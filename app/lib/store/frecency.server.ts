/**
 * The palette's frecency in the console's store (migration 013, issue 32). A use is one upsert
 * that decays the earlier score in the database's clock, so two instances recording at once both
 * count; each operator keeps at most FRECENCY_KEPT commands, the least used dropped.
 */
import { sql } from "kysely";
import { FRECENCY_HALF_LIFE_HOURS, type Frecency } from "../frecency";
import type { ConsoleStore } from "./schema";

/** More than the registry's commands: ids the palette no longer has fall off on their own. */
export const FRECENCY_KEPT = 200;

const halfLifeSeconds = FRECENCY_HALF_LIFE_HOURS * 3600;

export async function recordUse(store: ConsoleStore, operator: string, command: string): Promise<void> {
  await store.transaction().execute(async (trx) => {
    await sql`
      insert into console_frecency (operator, command, score, used_at) values (${operator}, ${command}, 1, now())
      on conflict (operator, command) do update
        set score = console_frecency.score * power(0.5, greatest(0, extract(epoch from now() - console_frecency.used_at)) / ${halfLifeSeconds}) + 1,
            used_at = now()`.execute(trx);
    await sql`
      delete from console_frecency where operator = ${operator} and command in (
        select command from console_frecency where operator = ${operator}
         order by score * power(0.5, extract(epoch from now() - used_at) / ${halfLifeSeconds}) desc offset ${FRECENCY_KEPT})`.execute(trx);
  });
}

/** The operator's uses by command id. */
export async function usesOf(store: ConsoleStore, operator: string): Promise<Record<string, Frecency>> {
  const rows = await store.selectFrom("console_frecency").select(["command", "score", "used_at"]).where("operator", "=", operator).execute();
  return Object.fromEntries(rows.map((row) => [row.command, { score: Number(row.score), usedAt: row.used_at.getTime() }]));
}
