/** Reads of the reports' daily rollup (migration 008): a few rows per day and game, whatever the bet count. */
import { sql } from "kysely";
import { ROLE } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { ReportRollupTable } from "../../db/schema.js";

export type Subject = { kind: ReportRollupTable["subject_kind"]; id: bigint };
/** Asia/Kolkata days, both inclusive. */
export type DayRange = { from: string; to: string };

const forSubject = (db: Db, subject: Subject, range: DayRange) =>
  db
    .selectFrom("report_rollup")
    .where("subject_kind", "=", subject.kind)
    .where("subject_id", "=", subject.id)
    .where("day", ">=", range.from)
    .where("day", "<=", range.to);

/** Per game: the direct and indirect results and myShare, all in minor units (myShare rounded to the paisa). */
export function figuresByGame(db: Db, subject: Subject, range: DayRange) {
  return forSubject(db, subject, range)
    .select([
      "game",
      sql<bigint>`sum(direct)::bigint`.as("direct"),
      sql<bigint>`sum(indirect)::bigint`.as("indirect"),
      sql<bigint>`round(sum(my_share) / 100)::bigint`.as("my_share"),
    ])
    .groupBy("game")
    .execute();
}

/** The subject's book (direct plus indirect) per day that has results, oldest first. */
export function profitByDay(db: Db, subject: Subject, range: DayRange) {
  return forSubject(db, subject, range)
    .select([sql<string>`day::text`.as("day"), sql<bigint>`sum(direct + indirect)::bigint`.as("profit")])
    .groupBy("day")
    .orderBy("day")
    .execute();
}

export function findUserParent(db: Db, userId: bigint) {
  return db.selectFrom("users").select("parent_id").where("id", "=", userId).executeTakeFirst();
}

export function findPartner(db: Db, id: bigint) {
  return db.selectFrom("admins").select("id").where("id", "=", id).where("role", "=", ROLE.partner).executeTakeFirst();
}
