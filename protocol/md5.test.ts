import { hash, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { md5Into } from "./md5";

const digest = (input: Uint8Array) => {
  const out = Buffer.alloc(20, 0xee);
  md5Into(input, out, 2);
  expect(out.subarray(0, 2).toString("hex") + out.subarray(18).toString("hex")).toBe("eeeeeeee");
  return out.subarray(2, 18).toString("hex");
};

describe("md5Into", () => {
  it("gives RFC 1321's test vectors", () => {
    expect(digest(Buffer.from(""))).toBe("d41d8cd98f00b204e9800998ecf8427e");
    expect(digest(Buffer.from("abc"))).toBe("900150983cd24fb0d6963f7d28e17f72");
    expect(digest(Buffer.from("1234567890".repeat(8)))).toBe("57edf4a22be3c955ac49da2e2107b67a");
  });

  it("agrees with node:crypto at every length across the block and padding boundaries", () => {
    for (let length = 0; length <= 200; length++) {
      const input = randomBytes(length);
      expect(digest(input), `length ${length}`).toBe(hash("md5", input, "hex"));
    }
  });
});
