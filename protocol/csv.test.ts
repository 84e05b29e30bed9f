import { describe, expect, it } from "vitest";
import { csvText } from "./csv";

describe("a CSV cell", () => {
  it("keeps formula-like text text behind a quote", () => {
    for (const text of ["=HYPERLINK(\"x\")", "+1+1", "-cmd", "@SUM(A1)", "\tx", "\rx"]) expect(csvText(text)).toBe(`'${text}`);
  });

  it("writes plain numbers, losses included, and other text as they are", () => {
    for (const text of ["-10.00", "150.5", "42", "user0042", "Bank details updated successfully", '{"_id":"7"}']) expect(csvText(text)).toBe(text);
  });
});
