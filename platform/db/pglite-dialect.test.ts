import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type Db } from "./index.js";
import { migrate } from "./migrate.js";

let db: Db;

beforeAll(async () => {
  db = await openDb({ kind: "pglite", dataDir: null });
  await migrate(db);
});
afterAll(() => db.destroy());

const roleNames = async () =>
  (await db.selectFrom("partner_roles").select("name").orderBy("level").execute()).map((row) => row.name);

describe("the PGlite dialect", () => {
  it("commits a transaction and rolls a failed one back", async () => {
    await db.transaction().execute((trx) => trx.insertInto("partner_roles").values({ name: "kept", level: 10 }).execute());
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto("partner_roles").values({ name: "discarded", level: 11 }).execute();
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await roleNames()).toEqual(["kept"]);
  });

  it("keeps other queries out of a running transaction", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto("partner_roles").values({ name: "pending", level: 12 }).execute();
      await gate;
      throw new Error("rolled back");
    });
    // Queued behind the transaction: it must not see, or commit, the pending row.
    const outside = roleNames();
    release();
    await expect(transaction).rejects.toThrow("rolled back");
    expect(await outside).toEqual(["kept"]);
  });

  it("rolls back to a savepoint", async () => {
    const trx = await db.startTransaction().execute();
    try {
      const inner = await trx.savepoint("inner").execute();
      await inner.insertInto("partner_roles").values({ name: "undone", level: 13 }).execute();
      await (await inner.rollbackToSavepoint("inner").execute()).releaseSavepoint("inner").execute();
      await trx.commit().execute();
    } catch (error) {
      await trx.rollback().execute();
      throw error;
    }
    expect(await roleNames()).toEqual(["kept"]);
  });

  it("reads int8 as bigint and numeric as exact text, like the pg driver is configured to", async () => {
    const { rows } = await sql<{ big: bigint; exact: string }>`select 9007199254740993::int8 as big, 0.10::numeric(12,2) as exact`.execute(db);
    expect(rows).toEqual([{ big: 9007199254740993n, exact: "0.10" }]);
  });

  it("reports affected rows", async () => {
    const result = await db.updateTable("partner_roles").set({ level: 20 }).where("name", "=", "kept").executeTakeFirst();
    expect(result.numUpdatedRows).toBe(1n);
  });

  it("migrates once", async () => {
    expect(await migrate(db)).toEqual([]);
  });
});
