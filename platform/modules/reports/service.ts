/**
 * Profit and loss reports for the house, a partner or a user over Asia/Kolkata days, from the
 * daily rollup kept at each settlement. Figures are the book's profit: positive when the house
 * (or the partner) gained. Partners may ask only about their own subtree; the super admin and
 * staff with `report` about anyone, the house by default.
 */
import { GAME_FLAGS, ROLE, type DailyProfit, type GameFigures, type ReportSubjectType, type ReportV1, type ReportV2 } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import { forbidden, notFound } from "../../errors.js";
import { minorToAmount } from "../../money.js";
import { isInSubtree } from "../accounts/repository.js";
import type { AdminAccount } from "../admins/repository.js";
import { figuresByGame, findPartner, findUserParent, profitByDay, type DayRange, type Subject } from "./repository.js";

export const REPORT_MESSAGE = {
  userNotFound: "User not found",
  partnerNotFound: "Partner not found",
} as const;

export type ReportQuery = DayRange & { subject?: { type: ReportSubjectType; id: bigint } };

type Figures = Awaited<ReturnType<typeof figuresByGame>>;

/** Every game flag, 0 where nothing was settled. */
const perGame = (rows: Figures, value: (row: Figures[number]) => bigint): GameFigures => {
  const byGame = new Map(rows.map((row) => [row.game, value(row)]));
  return Object.fromEntries(GAME_FLAGS.map((game) => [game, minorToAmount(byGame.get(game) ?? 0n)])) as GameFigures;
};

export function createReportService(db: Db) {
  /** Whom the report is for, refusing what the caller may not see. */
  async function subjectOf(caller: AdminAccount, query: ReportQuery): Promise<Subject> {
    const asked = query.subject;
    const partnerCaller = caller.role === ROLE.partner;
    if (!asked) return partnerCaller ? { kind: "partner", id: caller.id } : { kind: "house", id: 0n };
    if (asked.type === "user") {
      const user = await findUserParent(db, asked.id);
      if (!user) throw notFound(REPORT_MESSAGE.userNotFound);
      if (partnerCaller && !(await isInSubtree(db, caller.id, user.parent_id))) throw forbidden();
      return { kind: "user", id: asked.id };
    }
    if (!(await findPartner(db, asked.id))) throw notFound(REPORT_MESSAGE.partnerNotFound);
    if (partnerCaller && !(await isInSubtree(db, caller.id, asked.id))) throw forbidden();
    return { kind: "partner", id: asked.id };
  }

  async function daily(subject: Subject, range: DayRange): Promise<DailyProfit> {
    return (await profitByDay(db, subject, range)).map((row) => ({ day: row.day, profit: minorToAmount(row.profit) }));
  }

  async function reportV1(caller: AdminAccount, query: ReportQuery): Promise<ReportV1> {
    const subject = await subjectOf(caller, query);
    const rows = await figuresByGame(db, subject, query);
    const profit = perGame(rows, (row) => row.direct + row.indirect);
    const total = rows.reduce((sum, row) => sum + row.direct + row.indirect, 0n);
    return { profit, profit2: { total: minorToAmount(total) }, daily: await daily(subject, query) };
  }

  async function reportV2(caller: AdminAccount, query: ReportQuery): Promise<ReportV2> {
    const subject = await subjectOf(caller, query);
    const rows = await figuresByGame(db, subject, query);
    const direct = perGame(rows, (row) => row.direct);
    if (subject.kind === "user") return { direct, daily: await daily(subject, query) };
    return {
      direct,
      indirect: perGame(rows, (row) => row.indirect),
      myShare: perGame(rows, (row) => row.my_share),
      daily: await daily(subject, query),
    };
  }

  return { reportV1, reportV2 };
}
