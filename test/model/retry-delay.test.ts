import { describe, expect, test } from "vitest";
import { retryAfterMs, retryDelayMs } from "../../src/model/index.ts";

const base = { baseDelayMs: 500, maxDelayMs: 60_000 };

describe("retryDelayMs", () => {
  test.for([
    // label, retry, random, expected
    ["first retry, no jitter draw", 1, 0, 250],
    ["first retry, top of the jitter range", 1, 0.999_999, 500],
    ["second retry doubles", 2, 0.5, 750],
    ["third retry doubles again", 3, 0.5, 1500],
    ["backoff is capped at maxDelayMs", 20, 0.999_999, 60_000],
  ] as const)("%s", ([, retry, random, expected]) => {
    expect(retryDelayMs({ ...base, retry, random: () => random })).toBe(expected);
  });

  test("uses the server's Retry-After instead of backoff", () => {
    expect(retryDelayMs({ ...base, retry: 1, headers: new Headers({ "retry-after": "3" }) })).toBe(3000);
  });

  test("caps the server's Retry-After at maxDelayMs", () => {
    expect(retryDelayMs({ ...base, retry: 1, headers: new Headers({ "retry-after": "3600" }) })).toBe(60_000);
  });
});

describe("retryAfterMs", () => {
  test.for([
    ["seconds", { "retry-after": "2" }, 2000],
    ["retry-after-ms wins over retry-after", { "retry-after-ms": "150", "retry-after": "9" }, 150],
    ["zero", { "retry-after": "0" }, 0],
    ["a date in the past waits nothing", { "retry-after": "Wed, 21 Oct 2015 07:28:00 GMT" }, 0],
    ["garbage is ignored", { "retry-after": "soon" }, undefined],
    ["negative seconds are ignored", { "retry-after": "-5" }, undefined],
    ["no header", {}, undefined],
  ] as const)("%s", ([, headers, expected]) => {
    expect(retryAfterMs(new Headers(headers))).toBe(expected);
  });

  test("reads an HTTP date in the future as the time until then", () => {
    const inTenSeconds = new Date(Date.now() + 10_000).toUTCString();
    const wait = retryAfterMs(new Headers({ "retry-after": inTenSeconds }));
    // toUTCString drops milliseconds, so the wait is between 9 and 10 seconds.
    expect(wait).toBeGreaterThan(8_000);
    expect(wait).toBeLessThanOrEqual(10_000);
  });
});
