import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonical } from "./audit-log.server";

/** The trail's canonical JSON as first written (ADR 0008): every entry's hash since then was made over this text. */
function asFirstWritten(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(asFirstWritten).join(",")}]`;
  if (value && typeof value === "object") {
    const fields = Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${fields.map(([key, field]) => `${JSON.stringify(key)}:${asFirstWritten(field)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

describe("the trail's canonical JSON", () => {
  it("is the text every recorded entry was hashed over, so older entries still verify", () => {
    const anything = fc.anything({ withObjectString: false, withNullPrototype: false, withBigInt: false, withDate: false, withTypedArray: false, withSparseArray: false });
    fc.assert(
      fc.property(anything, (value) => {
        expect(canonical(value)).toBe(asFirstWritten(value));
      }),
    );
  });

  it("sorts keys at every depth and leaves undefined fields out", () => {
    expect(canonical({ b: 1, a: [{ d: undefined, c: "x" }], é: null, Z: true })).toBe('{"Z":true,"a":[{"c":"x"}],"b":1,"é":null}');
  });
});
