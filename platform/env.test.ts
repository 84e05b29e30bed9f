import { describe, expect, it } from "vitest";
import { loadDbEnv, loadEnv } from "./env.js";

const SECRET = { API_SECRET: "not-the-development-one" };

describe("PASSWORD_HASH_COST", () => {
  it("is production's 15 unless told, and 10 to 15 when told", () => {
    expect(loadEnv(SECRET).PASSWORD_HASH_COST).toBe(15);
    expect(loadEnv({ ...SECRET, NODE_ENV: "test", PASSWORD_HASH_COST: "10" }).PASSWORD_HASH_COST).toBe(10);
    expect(loadEnv({ ...SECRET, NODE_ENV: "production", PASSWORD_HASH_COST: "15" }).PASSWORD_HASH_COST).toBe(15);
    for (const outside of ["9", "16", "15.5", "fast"]) expect(() => loadEnv({ ...SECRET, PASSWORD_HASH_COST: outside })).toThrow(/PASSWORD_HASH_COST/);
  });

  it("refuses less than 15 in production, for the platform and for the database tools alike", () => {
    for (const load of [loadEnv, loadDbEnv]) {
      expect(() => load({ ...SECRET, NODE_ENV: "production", PASSWORD_HASH_COST: "14" })).toThrow(/PASSWORD_HASH_COST 14 is below 15/);
      expect(load({ ...SECRET, NODE_ENV: "development", PASSWORD_HASH_COST: "14" }).PASSWORD_HASH_COST).toBe(14);
    }
  });
});
