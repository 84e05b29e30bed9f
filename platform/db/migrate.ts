/** Applies the platform's `migrations/NNN-name.sql` in order, each once (db/index.ts `runMigrations`). */
import { runMigrations } from "../../db/index.js";
import type { Db } from "./index.js";

/** Returns the names of the migrations it applied (empty when the schema was current). */
export const migrate = (db: Db): Promise<string[]> =>
  runMigrations(db, { dir: new URL("./migrations/", import.meta.url), table: "schema_migrations" });
