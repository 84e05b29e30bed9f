import type { FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { ROLE } from "../../../protocol/wire.js";
import type { Flags } from "../../db/schema.js";
import { HttpError } from "../../errors.js";
import { requireStaffFlag } from "./access.js";

const requestOf = (role: number, permissions: Flags) =>
  ({ auth: { admin: { role, permissions }, session: { id: 1n, udid: "u" } } }) as unknown as FastifyRequest;

const outcome = (role: number, permissions: Flags) =>
  requireStaffFlag("deposits")(requestOf(role, permissions)).then(
    () => "allowed",
    (error: HttpError) => `${error.statusCode} ${error.message}`,
  );

describe("requireStaffFlag", () => {
  it("lets the super admin through whatever is stored", async () => {
    expect(await outcome(ROLE.superAdmin, {})).toBe("allowed");
  });

  it("lets staff through only with the flag", async () => {
    expect(await outcome(ROLE.staff, { deposits: true })).toBe("allowed");
    expect(await outcome(ROLE.staff, { withdraws: true })).toBe("403 Permission denied");
  });

  it("refuses partners, who hold no staff flags", async () => {
    expect(await outcome(ROLE.partner, { deposits: true })).toBe("403 Permission denied");
  });

  it("refuses a request nobody signed in to", async () => {
    const anonymous = { auth: null } as unknown as FastifyRequest;
    await expect(requireStaffFlag("report")(anonymous)).rejects.toMatchObject({ statusCode: 401, message: "Admin not found" });
  });
});
