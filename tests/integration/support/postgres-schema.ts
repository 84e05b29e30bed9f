/**
 * Global setup of the integration-pg project: a fresh schema on TEST_DATABASE_URL for this
 * run, handed to the workers through `provide`, dropped when the run ends.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    postgres: { url: string; schema: string } | undefined;
  }
}

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error("integration-pg needs TEST_DATABASE_URL");
  const schema = `betdesk_test_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  project.provide("postgres", { url, schema });
  return async () => {
    await client.query(`drop schema ${schema} cascade`);
    await client.end();
  };
}
