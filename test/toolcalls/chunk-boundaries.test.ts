import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createToolCallParser, joinTextEvents, parseToolCalls, type ToolCallEvent, type ToolCallProtocol } from "../../src/index.ts";
import { fuzzParameters, fuzzTimeout } from "../fuzz/fuzz-settings.ts";
import { asJsonProtocol, asTaggedProtocol, RECORDED, RECORDED_TOOLS } from "./recorded-replies.ts";
import { JSON_ROWS, TAGGED_ROWS, TOOLS } from "./tool-call-tables.ts";

interface Fixture {
  readonly label: string;
  readonly protocol: ToolCallProtocol;
  readonly text: string;
  readonly tools: readonly { readonly name: string }[];
  readonly keepReasoning?: boolean;
}

/** Every reply of the tables and every recorded reply, as written and in each protocol's shape. */
const FIXTURES: readonly Fixture[] = [
  ...JSON_ROWS.map((row) => ({ label: `json table: ${row.label}`, protocol: "json" as const, text: row.text, tools: TOOLS, keepReasoning: row.keepReasoning })),
  ...TAGGED_ROWS.map((row) => ({ label: `tagged table: ${row.label}`, protocol: "tagged" as const, text: row.text, tools: TOOLS, keepReasoning: row.keepReasoning })),
  ...RECORDED.flatMap((reply) => [
    { label: `recorded, json: ${reply.label}`, protocol: "json" as const, text: reply.text, tools: RECORDED_TOOLS },
    { label: `recorded as json: ${reply.label}`, protocol: "json" as const, text: asJsonProtocol(reply.text), tools: RECORDED_TOOLS },
    { label: `recorded, tagged: ${reply.label}`, protocol: "tagged" as const, text: asTaggedProtocol(reply) ?? reply.text, tools: RECORDED_TOOLS },
  ]),
];

/** Feeds `text` cut at `cuts` (sorted positions) and returns the joined events. */
function streamed(fixture: Fixture, cuts: readonly number[]): ToolCallEvent[] {
  const parser = createToolCallParser(fixture);
  const events: ToolCallEvent[] = [];
  let from = 0;
  for (const cut of [...cuts, fixture.text.length]) {
    events.push(...parser.push(fixture.text.slice(from, cut)));
    from = cut;
  }
  events.push(...parser.end());
  return joinTextEvents(events);
}

describe("the streaming parser gives the whole-string events however the reply is cut", () => {
  test.for(FIXTURES)("cut at every position, and one character at a time: $label", (fixture) => {
    const whole = parseToolCalls(fixture.text, fixture);
    expect(whole.map((event) => (event.type === "text" ? event.text : event.raw)).join("")).toBe(fixture.text);
    for (let cut = 0; cut <= fixture.text.length; cut++) {
      const events = streamed(fixture, [cut]);
      if (JSON.stringify(events) !== JSON.stringify(whole)) expect({ cut, events }).toEqual({ cut, events: whole });
    }
    expect(streamed(fixture, Array.from({ length: fixture.text.length }, (_, index) => index))).toEqual(whole);
  });

  const cuts = (length: number) => fc.uniqueArray(fc.integer({ min: 0, max: length }), { maxLength: 12 }).map((positions) => positions.sort((a, b) => a - b));

  test(
    "cut at random positions (seeded), every fixture",
    () => {
      const fixtureAndCuts = fc.nat({ max: FIXTURES.length - 1 }).chain((index) => fc.tuple(fc.constant(FIXTURES[index]!), cuts(FIXTURES[index]!.text.length)));
      fc.assert(
        fc.property(fixtureAndCuts, ([fixture, positions]) => {
          expect(streamed(fixture, positions)).toEqual(parseToolCalls(fixture.text, fixture));
        }),
        { seed: 20261123, ...fuzzParameters(0.1, 2_000) },
      );
    },
    fuzzTimeout(0.1, 30_000),
  );

  test(
    "replies spliced from fixture pieces, cut at random positions (seeded)",
    () => {
      const pieces = FIXTURES.map((fixture) => fixture.text);
      const reply = fc
        .tuple(fc.constantFrom<ToolCallProtocol>("json", "tagged"), fc.boolean(), fc.array(fc.tuple(fc.constantFrom(...pieces), fc.nat(), fc.nat()), { minLength: 1, maxLength: 6 }))
        .map(([protocol, keepReasoning, parts]) => ({
          protocol,
          keepReasoning,
          tools: [...TOOLS, ...RECORDED_TOOLS],
          label: "spliced",
          // A slice of each piece, so calls, fences and tags are cut open and joined with others.
          text: parts.map(([piece, a, b]) => piece.slice(Math.min(a, b) % (piece.length + 1), Math.max(a, b) % (piece.length + 1) || undefined)).join(""),
        }));
      fc.assert(
        fc.property(reply.chain((fixture) => fc.tuple(fc.constant(fixture), cuts(fixture.text.length))), ([fixture, positions]) => {
          const whole = parseToolCalls(fixture.text, fixture);
          expect(whole.map((event) => (event.type === "text" ? event.text : event.raw)).join("")).toBe(fixture.text);
          expect(streamed(fixture, positions)).toEqual(whole);
        }),
        { seed: 11235813, ...fuzzParameters(0.1, 2_000) },
      );
    },
    fuzzTimeout(0.1, 30_000),
  );
});
