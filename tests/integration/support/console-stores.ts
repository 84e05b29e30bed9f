/**
 * The console store's integration files share this: every store they open is on the database of
 * the project running them, as the platform's is: embedded PGlite in `integration`, PostgreSQL
 * in `integration-pg` (a schema of its own each). So with TEST_DATABASE_URL set every store test
 * runs once on each, not twice. All are closed, and the schemas dropped, after the file.
 */
import { inject } from "vitest";
import { openConsoleStore } from "../../../app/lib/store/open.server";
import type { ConsoleStore } from "../../../app/lib/store/schema";
import { throwawaySchemas } from "./schemas";

export type StoreTarget = Parameters<typeof openConsoleStore>[0];

/** `open` a store (closed after the file) and the `targets` to open it on, schemas named `prefix_…`. */
export function consoleStores(prefix: string) {
  const postgresUrl = inject("postgres")?.url;
  const opened: ConsoleStore[] = [];
  // Stores close before their schemas go.
  const freshSchema = throwawaySchemas(prefix, { before: async () => void (await Promise.all(opened.map((store) => store.destroy()))) });

  async function open(target: StoreTarget): Promise<ConsoleStore> {
    const store = await openConsoleStore(target);
    opened.push(store);
    return store;
  }

  const targets: Array<[string, () => Promise<StoreTarget>]> = postgresUrl
    ? [["PostgreSQL", async () => ({ kind: "postgres", url: postgresUrl, schema: await freshSchema(postgresUrl) })]]
    : [["PGlite", async () => ({ kind: "pglite", dataDir: null })]];
  return { open, targets };
}
