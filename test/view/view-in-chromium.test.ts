import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { renderTraceHtml } from "../../src/view/render-trace-html.ts";
import { recordSampleTrace } from "./trace-fixture.ts";

const CHROMIUM = "/usr/bin/chromium";
const OUTPUT_DIR = fileURLToPath(new URL("../../test-output/view/", import.meta.url));

describe.skipIf(!existsSync(CHROMIUM))("the HTML view in headless Chromium", () => {
  let browser: Browser;
  let pageUrl: string;
  const requests: string[] = [];

  beforeAll(async () => {
    const { events } = await recordSampleTrace();
    mkdirSync(OUTPUT_DIR, { recursive: true });
    const file = join(OUTPUT_DIR, "sample-trace.html");
    writeFileSync(file, renderTraceHtml(events));
    pageUrl = pathToFileURL(file).href;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  });
  afterAll(async () => browser?.close());

  test("renders the timeline, the code blocks with intercepted calls, sub-calls and the final answer; loads nothing else", async () => {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    page.on("request", (request) => requests.push(request.url()));
    let dialogs = 0;
    page.on("dialog", async (dialog) => {
      dialogs++;
      await dialog.dismiss();
    });
    await page.goto(pageUrl);

    expect(await page.locator("[data-testid=timeline] > [data-testid=turn]").count()).toBe(4);
    const timeline = page.getByTestId("timeline").first();
    expect(await timeline.isVisible()).toBe(true);
    expect(await page.getByTestId("code-block").count()).toBeGreaterThanOrEqual(5);
    const intercepted = page.locator(".code .ln.intercepted").first();
    expect(await intercepted.innerText()).toContain('const owner = lookup_owner("retry")');
    expect(await page.locator(".code .ln.rejected").count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId("sandbox-error").first().innerText()).toContain("undefinedFunction");
    expect(await page.getByTestId("sandbox-output").first().innerText()).toBe("owner: team-retry, files: 3");
    expect(await page.getByTestId("subcall").count()).toBeGreaterThanOrEqual(2);
    const answer = await page.getByTestId("final-answer").first().innerText();
    expect(answer).toContain("The retry module is owned by team-retry <team>; it doubles the delay.");
    expect(await page.getByTestId("status").first().innerText()).toBe("final");

    // The model's markup is shown as text, never run.
    expect(dialogs).toBe(0);
    expect(await page.locator("script").count()).toBe(0);
    expect(requests).toEqual([pageUrl]);

    await page.locator("details.subcall").evaluateAll((nodes) => nodes.forEach((node) => node.setAttribute("open", "")));
    const screenshot = join(OUTPUT_DIR, "sample-trace.png");
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(existsSync(screenshot)).toBe(true);
    await page.close();
  });
});
