/**
 * Saved views in the console's store (migration 015, issue 32): each operator's own, per screen,
 * at most VIEWS_PER_SCREEN; a view saved as the default takes that mark from the screen's others.
 */
import { VIEWS_PER_SCREEN, type SavedView } from "../list-view";
import type { ConsoleStore } from "./schema";

/** The operator's views of a screen, by name. */
export async function viewsOf(store: ConsoleStore, operator: string, screen: string): Promise<SavedView[]> {
  const rows = await store
    .selectFrom("console_views")
    .select(["name", "query", "is_default"])
    .where("operator", "=", operator)
    .where("screen", "=", screen)
    .orderBy("name")
    .execute();
  return rows.map((row) => ({ name: row.name, query: row.query, isDefault: row.is_default }));
}

/** Saves (or replaces) a view; false when the screen already holds VIEWS_PER_SCREEN others. */
export async function saveView(store: ConsoleStore, operator: string, screen: string, view: SavedView): Promise<boolean> {
  return store.transaction().execute(async (trx) => {
    const mine = trx.selectFrom("console_views").where("operator", "=", operator).where("screen", "=", screen);
    // Locks the operator's rows of this screen: saves racing on two instances queue once it has a view.
    const names = (await mine.select("name").forUpdate().execute()).map((row) => row.name);
    if (!names.includes(view.name) && names.length >= VIEWS_PER_SCREEN) return false;
    if (view.isDefault) {
      await trx
        .updateTable("console_views")
        .set({ is_default: false })
        .where("operator", "=", operator)
        .where("screen", "=", screen)
        .execute();
    }
    await trx
      .insertInto("console_views")
      .values({ operator, screen, name: view.name, query: view.query, is_default: view.isDefault })
      .onConflict((conflict) =>
        conflict.columns(["operator", "screen", "name"]).doUpdateSet({ query: view.query, is_default: view.isDefault }),
      )
      .execute();
    return true;
  });
}

/** Deletes one of the operator's views; false when they have none of that name. */
export async function deleteView(store: ConsoleStore, operator: string, screen: string, name: string): Promise<boolean> {
  const result = await store
    .deleteFrom("console_views")
    .where("operator", "=", operator)
    .where("screen", "=", screen)
    .where("name", "=", name)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
