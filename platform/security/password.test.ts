import { describe, expect, it } from "vitest";
import { DEFAULT_HASH_COST, dummyPasswordHash, hashPassword, LEAST_HASH_COST, verifyPassword } from "./password.js";

describe("password hashing", () => {
  it("verifies the password it hashed and nothing else", async () => {
    const hash = await hashPassword("correct horse");
    expect(hash).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword("correct horse", hash)).toBe(true);
    expect(await verifyPassword("correct horsf", hash)).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("records the cost it hashed at, production's unless told, and checks each hash at its own", async () => {
    const usual = await hashPassword("correct horse");
    const least = await hashPassword("correct horse", LEAST_HASH_COST);
    expect(usual.split("$")[1]).toBe(String(2 ** DEFAULT_HASH_COST));
    expect(least.split("$")[1]).toBe(String(2 ** LEAST_HASH_COST));
    for (const hash of [usual, least]) expect(await verifyPassword("correct horse", hash)).toBe(true);
  });

  it("checks an unknown username against a hash of the cost new ones are made at", async () => {
    expect((await dummyPasswordHash()).split("$")[1]).toBe(String(2 ** DEFAULT_HASH_COST));
    expect((await dummyPasswordHash(LEAST_HASH_COST)).split("$")[1]).toBe(String(2 ** LEAST_HASH_COST));
  });

  it("reads the cost from the stored hash", async () => {
    const cheap = "scrypt$1024$8$1$c2FsdA$" + "x".repeat(43);
    expect(await verifyPassword("anything", cheap)).toBe(false);
  });

  it("answers false for a hash it cannot read", async () => {
    for (const stored of ["", "plain", "bcrypt$2b$10$abc", "scrypt$3$8$1$c2FsdA$aGFzaA"]) {
      expect(await verifyPassword("x", stored)).toBe(false);
    }
  });
});
