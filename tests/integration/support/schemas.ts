/**
 * Throwaway PostgreSQL schemas for one test file: `fresh()` creates one named `prefix_…`, and
 * every one created is dropped after the file.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll } from "vitest";

export function throwawaySchemas(prefix: string, { before }: { before?: () => Promise<void> } = {}) {
  const schemas: { url: string; schema: string }[] = [];

  afterAll(async () => {
    await before?.();
    for (const { url, schema } of schemas) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    }
  });

  return async function fresh(url: string): Promise<string> {
    const schema = `${prefix}_${randomBytes(6).toString("hex")}`;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    schemas.push({ url, schema });
    return schema;
  };
}
