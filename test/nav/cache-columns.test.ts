import { describe, expect, test } from "vitest";
import { columnsJson, readColumns } from "../../src/nav/cache-columns.ts";

const NAMES = ["path", "size", "language", "binary"] as const;
const row = (index: number) => ({ path: `dir/f${index}.py`, size: index * 7, language: index % 3 === 0 ? undefined : "python", binary: index % 5 === 0 });

describe("cache columns", () => {
  test.for([0, 1, 2047, 2048, 2049, 5000])("%i rows written in chunks read back as the same columns", (rows) => {
    const text = [...columnsJson(NAMES, rows, (name, index) => row(index)[name])].join("");
    const { columns, rows: count } = readColumns(JSON.parse(text), NAMES);
    expect(count).toBe(rows);
    for (let index = 0; index < rows; index++) {
      const expected = row(index);
      expect([columns.path[index], columns.size[index], columns.language[index], columns.binary[index]]).toEqual([expected.path, expected.size, expected.language ?? null, expected.binary]);
    }
  });

  test.for<[string, unknown]>([
    ["not an object", [{ path: "a" }]],
    ["null", null],
    ["a missing column", { path: ["a"], size: [1], language: [null] }],
    ["a column of another length", { path: ["a", "b"], size: [1], language: [null, null], binary: [false, false] }],
    ["a column that is not an array", { path: ["a"], size: 1, language: [null], binary: [false] }],
  ])("refuses %s", ([, value]) => {
    expect(() => readColumns(value, NAMES)).toThrow(/column/);
  });
});
