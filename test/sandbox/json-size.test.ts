import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { jsonChars } from "../../sandbox/json-size.ts";

describe("jsonChars: a JSON value's size without building its JSON", () => {
  test("is within a factor of the real JSON length for any JSON value without escapes", () => {
    const plain = fc.string({ unit: fc.constantFrom(..."abcxyz019 _-") });
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: "small" }, plain, fc.integer(), fc.boolean(), fc.constant(null), tie("array"), tie("object")),
      array: fc.array(tie("value"), { maxLength: 6 }),
      object: fc.dictionary(plain, tie("value"), { maxKeys: 6 }),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        const real = JSON.stringify(value).length;
        const estimate = jsonChars(value);
        expect(estimate).toBeGreaterThanOrEqual(real * 0.5);
        expect(estimate).toBeLessThanOrEqual(real * 8 + 8);
      }),
    );
  });

  test("a large string counts its length; nesting 100,000 deep does not overflow the stack", () => {
    expect(jsonChars("x".repeat(1_000_000))).toBe(1_000_002);
    let deep: unknown = [];
    for (let index = 0; index < 100_000; index++) deep = [deep];
    expect(jsonChars(deep)).toBeGreaterThan(200_000);
  });

  test("a cycle ends in JSON.stringify's TypeError, not an endless walk", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    expect(() => jsonChars(cyclic)).toThrow(TypeError);
  });
});
