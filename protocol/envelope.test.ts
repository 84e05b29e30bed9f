import CryptoJS from "crypto-js";
import { describe, expect, it } from "vitest";
import { EnvelopeError, open, seal } from "./envelope";

const SECRET = "a shared secret";
const cryptoJsSeal = (value: unknown, secret = SECRET) =>
  CryptoJS.AES.encrypt(JSON.stringify(value), secret).toString();
const cryptoJsOpen = (text: string, secret = SECRET) =>
  JSON.parse(CryptoJS.AES.decrypt(text, secret).toString(CryptoJS.enc.Utf8));

const samples: Array<[string, unknown]> = [
  ["an empty object", {}],
  ["a login body", { username: "admin", password: "admin123" }],
  ["unicode text", { name: "Зоя 🏏 ₹1,000 — 日本語", remark: "naïve café" }],
  ["a bare number", 42.5],
  ["null", null],
  ["a list", [1, "two", { three: [3] }]],
];

describe("envelope codec", () => {
  it.each(samples)("opens what crypto-js sealed: %s", (_, value) => {
    expect(open(cryptoJsSeal(value), SECRET)).toEqual(value);
  });

  it.each(samples)("seals what crypto-js opens: %s", (_, value) => {
    expect(cryptoJsOpen(seal(value, SECRET))).toEqual(value);
  });

  it("round-trips a 1 MB payload both ways", () => {
    const big = { blob: "x".repeat(1024 * 1024), items: Array.from({ length: 1000 }, (_, i) => ({ i })) };
    expect(open(cryptoJsSeal(big), SECRET)).toEqual(big);
    expect(cryptoJsOpen(seal(big, SECRET))).toEqual(big);
  });

  it("keeps nothing of one message in the next, whatever their sizes", () => {
    // Small, past the kept buffer's first size, past its limit, and small again, interleaved.
    const values = [{ a: 1 }, { b: "é".repeat(40_000) }, { c: "x".repeat(400_000) }, { d: [2] }];
    const sealed = values.map((value) => seal(value, SECRET));
    const fromCryptoJs = values.map((value) => cryptoJsSeal(value));
    values.forEach((value, i) => {
      expect(cryptoJsOpen(sealed[i]!)).toEqual(value);
      expect(open(sealed[i], SECRET)).toEqual(value);
      expect(open(fromCryptoJs[i], SECRET)).toEqual(value);
    });
  });

  it("uses a fresh salt for every seal", () => {
    expect(seal({ a: 1 }, SECRET)).not.toBe(seal({ a: 1 }, SECRET));
  });

  it("works with a unicode secret like crypto-js", () => {
    const secret = "clé-секрет-🔑";
    expect(open(cryptoJsSeal({ ok: true }, secret), secret)).toEqual({ ok: true });
    expect(cryptoJsOpen(seal({ ok: true }, secret), secret)).toEqual({ ok: true });
  });

  it("opens base64 without its padding, as crypto-js does", () => {
    const text = cryptoJsSeal({ a: 1 }); // 32 bytes: 43 characters and one "="
    expect(text.endsWith("=")).toBe(true);
    expect(open(text.replace(/=+$/, ""), SECRET)).toEqual({ a: 1 });
  });

  const sealedWith = (characters: RegExp) => {
    for (;;) {
      const text = seal({ user: "admin", pad: "y".repeat(80) }, SECRET);
      if (characters.test(text)) return text;
    }
  };

  const failures: Array<[string, unknown, string]> = [
    ["base64 in the URL-safe alphabet", sealedWith(/[+/]/).replace(/\+/g, "-").replace(/\//g, "_"), "malformed"],
    ["base64 wrapped in lines as openssl prints it", sealedWith(/^/).replace(/(.{64})/g, "$1\n"), "malformed"],
    // Node's decoder reads a character beyond Latin-1 by its low byte: U+0141 would pass for "A".
    ["base64 with a character beyond Latin-1", sealedWith(/A/).replace("A", "\u0141"), "malformed"],
    ["base64 with a stray character", sealedWith(/^/).replace(/^(.{20})/, "$1*"), "malformed"],
    ["a wrong key", seal({ user: "admin" }, "another secret"), "undecryptable"],
    ["a truncated ciphertext", seal({ user: "admin", pad: "y".repeat(40) }, SECRET).slice(0, 40), "malformed"],
    ["non-base64 text", "not base64 at all!", "malformed"],
    ["an empty string", "", "malformed"],
    ["base64 without the Salted__ header", Buffer.from("x".repeat(48)).toString("base64"), "malformed"],
    ["a number instead of text", 12345, "malformed"],
    ["a sealed non-JSON text", CryptoJS.AES.encrypt("not json", SECRET).toString(), "not-json"],
  ];

  it.each(failures)("gives a typed error for %s", (_, input, code) => {
    let caught: unknown;
    try {
      open(input, SECRET);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvelopeError);
    expect((caught as EnvelopeError).code).toBe(code);
  });

  it("never throws anything but EnvelopeError on a wrong key, over many salts", () => {
    for (let i = 0; i < 300; i++) {
      const text = seal({ i }, SECRET);
      expect(() => open(text, "wrong")).toThrow(EnvelopeError);
    }
  });
});
