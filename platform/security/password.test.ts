import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.js";

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
