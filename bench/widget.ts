// `npm run bench:widget`: the widget in real Chromium against the real API on loopback (the test stack).
//   - time from script execution to rendered offer: `service-widget:ready` (dispatched while the script runs,
//     as it defines the element) to `service-widget:offer` (dispatched right after the offer is rendered);
//     also navigation start to offer. Median (and p90) of BENCH_LOADS loads (default 20), each a fresh context.
//   - bytes: the minified script, and gzipped (what a compressing CDN or the app behind one sends).
//   - main-thread time (CDP Performance.getMetrics), the page with the widget minus the same page without it,
//     medians: ScriptDuration (JavaScript) and TaskDuration (every main-thread task: parsing, style, layout, paint
//     of the extra content, event dispatch, the test's own instrumentation).
// Results are printed and written to bench/results/widget-<timestamp>.json.
import fs from "node:fs";
import path from "node:path";
import { checkoutPage, element, startStack, widgetAttributes } from "../test/support/widget/stack.ts";
import { launchBrowser, openPage, waitForEvent } from "../test/support/widget/browser.ts";
import { buildWidget } from "../packages/widget/build.ts";
import { median, percentile } from "./stats.ts";

const LOADS = Number(process.env.BENCH_LOADS ?? 20);
const p90 = (values: number[]) => percentile(values, 0.9);
const round = (value: number) => Math.round(value * 10) / 10;

const TIMES = `(() => {
  window.__times = {};
  addEventListener("service-widget:ready", () => (window.__times.ready ??= performance.now()), true);
  addEventListener("service-widget:offer", () => (window.__times.offer ??= performance.now()), true);
})();`;

const build = await buildWidget();
const stack = await startStack();
const browser = await launchBrowser();
try {
  const withWidget = stack.pages.set(
    "/bench",
    checkoutPage({
      widget: element(widgetAttributes(stack)),
      script: `<script src="${stack.scriptUrl}" async></script>`,
    }),
  );
  const withoutWidget = stack.pages.set("/bench-plain", checkoutPage({}));

  async function load(url: string, widget: boolean) {
    const tab = await openPage(browser, { initScript: TIMES });
    try {
      await tab.cdp.send("Performance.enable");
      await tab.page.goto(url);
      if (widget) await waitForEvent(tab, "offer");
      else await tab.page.waitForLoadState("load");
      const times = await tab.page.evaluate(
        () => (window as Window & { __times?: { ready: number; offer: number } }).__times!,
      );
      const { metrics } = (await tab.cdp.send("Performance.getMetrics")) as {
        metrics: { name: string; value: number }[];
      };
      const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
      return { ...times, scriptMs: metric("ScriptDuration") * 1000, taskMs: metric("TaskDuration") * 1000 };
    } finally {
      await tab.close();
    }
  }

  await load(withWidget, true); // warm-up: HTTP cache, API and Chromium
  const runs = [];
  const plain = [];
  for (let i = 0; i < LOADS; i++) {
    runs.push(await load(withWidget, true));
    plain.push(await load(withoutWidget, false));
  }
  const result = {
    loads: LOADS,
    scriptToOfferMs: {
      median: round(median(runs.map((r) => r.offer - r.ready))),
      p90: round(p90(runs.map((r) => r.offer - r.ready))),
    },
    navigationToOfferMs: { median: round(median(runs.map((r) => r.offer))), p90: round(p90(runs.map((r) => r.offer))) },
    bytes: build.bytes,
    gzipBytes: build.gzipBytes,
    // Chromium's counters for the page with the widget minus the same page without it (medians).
    mainThreadMs: {
      script: round(median(runs.map((r) => r.scriptMs)) - median(plain.map((r) => r.scriptMs))),
      allTasks: round(median(runs.map((r) => r.taskMs)) - median(plain.map((r) => r.taskMs))),
    },
    chromium: browser.version(),
    node: process.version,
  };
  console.log(JSON.stringify(result, null, 2));
  const dir = path.join(import.meta.dirname, "results");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, `widget-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
} finally {
  await browser.close();
  await stack.close();
}
