import { Secret } from "otpauth";
import { describe, expect, it } from "vitest";
import { codeAt, matchedStep, stepAt, TOTP_PERIOD_SECONDS } from "./totp.server";

// RFC 6238 appendix B: the SHA-1 seed is the ASCII of "12345678901234567890".
const RFC_SEED = Secret.fromLatin1("12345678901234567890").base32;
const RFC_SHA1_VECTORS: Array<[seconds: number, code: string]> = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("authenticator codes (RFC 6238)", () => {
  it.each(RFC_SHA1_VECTORS)("at %i s the 8-digit SHA-1 code is %s", (seconds, code) => {
    expect(codeAt(RFC_SEED, seconds * 1000, 8)).toBe(code);
  });

  it.each(RFC_SHA1_VECTORS)("at %i s the 6-digit code is the last six digits of %s", (seconds, code) => {
    expect(codeAt(RFC_SEED, seconds * 1000)).toBe(code.slice(-6));
  });

  const now = 1111111111_000;
  const step = (offset: number) => now + offset * TOTP_PERIOD_SECONDS * 1000;

  it("a code matches the step it was made in", () => {
    expect(matchedStep(RFC_SEED, codeAt(RFC_SEED, now), now)).toBe(stepAt(now));
  });

  it("a code one step early or late is accepted, as that step (clock drift)", () => {
    expect(matchedStep(RFC_SEED, codeAt(RFC_SEED, step(-1)), now)).toBe(stepAt(now) - 1);
    expect(matchedStep(RFC_SEED, codeAt(RFC_SEED, step(1)), now)).toBe(stepAt(now) + 1);
  });

  it("a code two steps away is refused", () => {
    expect(matchedStep(RFC_SEED, codeAt(RFC_SEED, step(-2)), now)).toBeNull();
    expect(matchedStep(RFC_SEED, codeAt(RFC_SEED, step(2)), now)).toBeNull();
  });

  it("anything but six digits is refused", () => {
    expect(matchedStep(RFC_SEED, codeAt(RFC_SEED, now, 8), now)).toBeNull();
    expect(matchedStep(RFC_SEED, "abcdef", now)).toBeNull();
  });
});
