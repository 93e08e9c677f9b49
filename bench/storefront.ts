// `npm run bench:storefront`: what <service-widget> costs the demo storefront page (/demo) in Lighthouse's
// performance category (Lighthouse 13, simulated throttling), run offline against Debian's Chromium.
//   - with: /demo as served by the web app that scripts/demo.ts starts (as `npm run demo` does), on a fresh SQLite
//     database and DATA_DIR in a temp dir.
//   - without: the same page minus the <service-widget> element and the widget's <script>. /demo has no switch for
//     that, so before each such run the bench fetches /demo from the app, strips those two tags and serves the rest
//     with the app's headers (CSP, nonce) from its own loopback server. The page loads no other relative URL (the
//     icon is a data: URL; the form posts only on "Place order"), so nothing is rewritten; any other request to that
//     server is reported. Served from memory, its TTFB is a few ms below the app's: if anything, against the widget.
// Cold loads (Lighthouse clears cache and storage); one discarded warm-up per variant, then BENCH_RUNS of each,
// alternating which goes first so machine load hits both alike. Medians of score, CLS, LCP, TBT, FCP, Speed Index
// and TTFB; targets: the widget costs ≤ 1 point and ≤ 0.01 CLS. A script, not a test: figures depend on the machine.
//
//   BENCH_RUNS=3             runs per variant
//   BENCH_FORM_FACTOR=mobile or desktop, one only (default: both). Mobile is 412×823, where the widget renders below
//                            the fold; desktop (Lighthouse's desktop preset, 1350×940) has it and what it pushes down
//                            in view
//   CHROMIUM_PATH            default /usr/bin/chromium
//   LIGHTHOUSE_LOG=error     Lighthouse's log level (info: every step)
//
// Results: printed, and bench/results/storefront-<timestamp>.json, with the Lighthouse report of each variant's
// median run beside it (storefront-<timestamp>.<form factor>.with.lhr.json, .without.lhr.json).
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Config, type Flags, type Result } from "lighthouse";
import { CHROMIUM_ARGS } from "../test/support/widget/browser.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
type FormFactor = "mobile" | "desktop";
const FORM_FACTORS: FormFactor[] = process.env.BENCH_FORM_FACTOR
  ? [process.env.BENCH_FORM_FACTOR as FormFactor]
  : ["mobile", "desktop"];
if (FORM_FACTORS.some((f) => f !== "mobile" && f !== "desktop"))
  throw new Error("BENCH_FORM_FACTOR: mobile or desktop");
const LOG_LEVEL = (process.env.LIGHTHOUSE_LOG ?? "error") as Flags["logLevel"];
const TARGETS = { points: 1, cls: 0.01 };
const ROOT = path.resolve(import.meta.dirname, "..");
const CHROMIUM_FLAGS = [
  ...CHROMIUM_ARGS,
  // Chromium 156 still tries Google hosts in the background (accounts.google.com/ListAccounts, network time,
  // update.googleapis.com) with the flags above; this fails them inside the browser, before any DNS query.
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];
// Lighthouse's defaults (mobile: Moto G Power screen, 4x CPU slowdown, simulated slow 4G) or its desktop preset,
// performance only, no full-page screenshot (a large image in every report). Its node API reports no errors to
// Sentry (only its CLI can).
const configFor = (formFactor: FormFactor): Config => ({
  extends: "lighthouse:default",
  settings: {
    ...(formFactor === "desktop" ? desktopConfig.settings : {}),
    onlyCategories: ["performance"],
    throttlingMethod: "simulate",
    disableFullPageScreenshot: true,
  },
});
const WIDGET_ELEMENT = /<service-widget\b[^>]*>[\s\S]*?<\/service-widget>\n?/g;
const WIDGET_SCRIPT = /<script\b[^>]*\bsrc="[^"]*\/service-widget\.js"[^>]*><\/script>\n?/g;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
// `+ 0`: no "-0".
const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits + 0;

type Variant = "with" | "without";
const FIGURES = ["score", "cls", "lcpMs", "tbtMs", "fcpMs", "speedIndexMs", "ttfbMs"] as const;
type Figures = Record<(typeof FIGURES)[number], number>;
/** Rounded for reading: CLS to 4 decimals, the rest to whole points and ms. */
const rounded = (f: Figures) =>
  Object.fromEntries(FIGURES.map((key) => [key, round(f[key], key === "cls" ? 4 : 0)])) as Figures;

/** The demo (scripts/demo.ts) on a free port; resolves with its origin once it printed it. */
async function startDemo(dir: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(process.execPath, ["scripts/demo.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: "0",
      DATA_DIR: path.join(dir, "data"),
      DATABASE_URL: `file:${path.join(dir, "demo.sqlite")}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const origin = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
    const timer = setTimeout(() => reject(new Error(`the demo did not start in 5 minutes:\n${output}`)), 300_000);
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        const printed = /the web app on (http:\/\/\S+)/.exec(output);
        if (printed) {
          clearTimeout(timer);
          resolve(printed[1]);
        }
      });
    }
  });
  return { child, origin };
}

/**
 * /demo without the widget: `load()` fetches the app's /demo and keeps it with its two widget tags removed; the server
 * answers GET / with that page and the app's headers until the next `load()`.
 */
async function startPlainServer(demoUrl: string) {
  const strays: string[] = [];
  let page: { html: string; headers: Record<string, string> } | undefined;
  const server = http.createServer((request, response) => {
    if (request.url === "/" && request.method === "GET" && page) response.writeHead(200, page.headers).end(page.html);
    else {
      strays.push(`${request.method} ${request.url}`);
      response.writeHead(404).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  async function load() {
    const answer = await fetch(demoUrl);
    const html = await answer.text();
    const elements = html.match(WIDGET_ELEMENT)?.length ?? 0;
    const scripts = html.match(WIDGET_SCRIPT)?.length ?? 0;
    if (answer.status !== 200 || elements !== 1 || scripts !== 1)
      throw new Error(`${demoUrl} answered ${answer.status} with ${elements} widget elements and ${scripts} scripts`);
    const headers: Record<string, string> = {};
    for (const name of ["content-type", "cache-control", "content-security-policy"])
      headers[name] = answer.headers.get(name) ?? "";
    page = { html: html.replace(WIDGET_ELEMENT, "").replace(WIDGET_SCRIPT, ""), headers };
  }
  return { server, url: `http://127.0.0.1:${port}/`, load, strays };
}

function figuresOf(lhr: Result): Figures {
  const value = (id: string) => lhr.audits[id].numericValue ?? NaN;
  return {
    score: (lhr.categories.performance.score ?? NaN) * 100,
    cls: value("cumulative-layout-shift"),
    lcpMs: value("largest-contentful-paint"),
    tbtMs: value("total-blocking-time"),
    fcpMs: value("first-contentful-paint"),
    speedIndexMs: value("speed-index"),
    ttfbMs: value("server-response-time"),
  };
}

type Items = Record<string, unknown>[];
const itemsOf = (lhr: Result, id: string) => ((lhr.audits[id]?.details as { items?: Items })?.items ?? []) as Items;

/** What the widget adds in one report: its requests, its script's main-thread time, the layout shifts. */
function widgetEvidence(lhr: Result) {
  const ours = (url: unknown) => typeof url === "string" && /\/widget\/|\/api\//.test(url);
  return {
    requests: itemsOf(lhr, "network-requests")
      .filter((item) => ours(item.url))
      .map((item) => ({
        url: new URL(String(item.url)).pathname,
        transferBytes: item.transferSize,
        startMs: round(Number(item.networkRequestTime)),
        endMs: round(Number(item.networkEndTime)),
      })),
    scriptBootup: itemsOf(lhr, "bootup-time")
      .filter((item) => ours(item.url))
      .map((item) => ({ url: new URL(String(item.url)).pathname, totalMs: round(Number(item.total), 1) })),
    mainThreadMs: round(lhr.audits["mainthread-work-breakdown"].numericValue ?? NaN),
    totalBytes: lhr.audits["total-byte-weight"].numericValue,
    layoutShifts: itemsOf(lhr, "layout-shifts").map((item) => {
      const node = item.node as { selector?: string; snippet?: string } | undefined;
      return { score: item.score, selector: node?.selector, snippet: node?.snippet };
    }),
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-bench-storefront-"));
let demo: ChildProcess | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
let plain: http.Server | undefined;
let cleaning: Promise<void> | undefined;
const cleanUp = () =>
  (cleaning ??= (async () => {
    chrome?.kill();
    plain?.close();
    if (demo && demo.exitCode === null && demo.signalCode === null) {
      const exited = once(demo, "exit");
      demo.kill("SIGTERM");
      const timer = setTimeout(() => demo?.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  })());
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));

const started = Date.now();
try {
  const app = await startDemo(dir);
  demo = app.child;
  const stripped = await startPlainServer(`${app.origin}/demo`);
  plain = stripped.server;
  const urls: Record<Variant, string> = { with: `${app.origin}/demo`, without: stripped.url };
  const profile = path.join(dir, "chromium");
  fs.mkdirSync(profile);
  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: CHROMIUM_FLAGS,
    userDataDir: profile,
    handleSIGINT: false,
  });
  const port = chrome.port;

  const audit = async (variant: Variant, formFactor: FormFactor): Promise<Result> => {
    if (variant === "without") await stripped.load();
    const flags: Flags = { port, output: "json", logLevel: LOG_LEVEL };
    const lhr = (await lighthouse(urls[variant], flags, configFor(formFactor)))?.lhr;
    if (!lhr) throw new Error(`Lighthouse returned no report for ${urls[variant]}`);
    if (lhr.runtimeError) throw new Error(`Lighthouse on ${urls[variant]}: ${lhr.runtimeError.message}`);
    // Everything the page loaded must come from this machine.
    const offsite = itemsOf(lhr, "network-requests")
      .map((item) => String(item.url))
      .filter((url) => !/^(https?:\/\/127\.0\.0\.1[:/]|data:)/.test(url));
    if (offsite.length) throw new Error(`${variant}: requests off this machine: ${offsite.join(", ")}`);
    return lhr;
  };

  const warmUp = await audit("with", FORM_FACTORS[0]); // warm-up: Chromium, the app's first requests
  await audit("without", FORM_FACTORS[0]);
  console.log(`Demo on ${app.origin}; Lighthouse ${warmUp.lighthouseVersion}, ${warmUp.environment.hostUserAgent}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const results = path.join(import.meta.dirname, "results");
  fs.mkdirSync(results, { recursive: true });
  const byFormFactor: Record<string, unknown> = {};
  for (const formFactor of FORM_FACTORS) byFormFactor[formFactor] = await measure(formFactor);
  const result = {
    runs: RUNS,
    targets: TARGETS,
    ...byFormFactor,
    settings: { throttlingMethod: "simulate", chromiumFlags: CHROMIUM_FLAGS },
    lighthouse: warmUp.lighthouseVersion,
    chromium: warmUp.environment.hostUserAgent,
    node: process.version,
    seconds: round((Date.now() - started) / 1000),
  };
  fs.writeFileSync(path.join(results, `storefront-${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${result.seconds} s; written to bench/results/storefront-${stamp}.json (+ .lhr.json per form factor)`);

  /** BENCH_RUNS of each variant in one form factor: medians, the widget's cost, the evidence. */
  async function measure(formFactor: FormFactor) {
    const reports: Record<Variant, Result[]> = { with: [], without: [] };
    for (let run = 0; run < RUNS; run++) {
      const order: Variant[] = run % 2 ? ["without", "with"] : ["with", "without"];
      for (const variant of order) {
        const lhr = await audit(variant, formFactor);
        reports[variant].push(lhr);
        const f = rounded(figuresOf(lhr));
        const ms = `LCP ${f.lcpMs} ms  TBT ${f.tbtMs} ms  FCP ${f.fcpMs} ms`;
        console.log(`  run ${run + 1} ${variant.padEnd(7)} score ${f.score}  CLS ${f.cls}  ${ms}`);
      }
    }

    const samples = { with: reports.with.map(figuresOf), without: reports.without.map(figuresOf) };
    const mediansOf = (figures: Figures[]) =>
      Object.fromEntries(FIGURES.map((key) => [key, median(figures.map((f) => f[key]))])) as Figures;
    const medians = { with: mediansOf(samples.with), without: mediansOf(samples.without) };
    const delta = rounded(
      Object.fromEntries(FIGURES.map((key) => [key, medians.with[key] - medians.without[key]])) as Figures,
    );
    const cost = { points: -delta.score, cls: delta.cls };
    const pass = { points: cost.points <= TARGETS.points, cls: cost.cls <= TARGETS.cls };
    // Per variant, the run nearest the medians (by score, then CLS, then LCP): its report is kept, its evidence shown.
    const medianRun = (variant: Variant) => {
      const gaps = samples[variant].map((f) =>
        (["score", "cls", "lcpMs"] as const).map((key) => Math.abs(f[key] - medians[variant][key])),
      );
      const nearer = (a: number[], b: number[]) => {
        const first = a.findIndex((gap, i) => gap !== b[i]);
        return first >= 0 && a[first] < b[first];
      };
      let best = 0;
      for (let index = 1; index < gaps.length; index++) if (nearer(gaps[index], gaps[best])) best = index;
      return reports[variant][best];
    };
    const evidence = widgetEvidence(medianRun("with"));
    const plainPage = widgetEvidence(medianRun("without"));

    console.log(`\n/demo in Lighthouse (${formFactor}, simulated throttling), medians of ${RUNS} runs\n`);
    console.table({ with: rounded(medians.with), without: rounded(medians.without), "with − without": delta });
    console.log(
      `widget costs ${cost.points} points (target ≤ ${TARGETS.points}): ${pass.points ? "pass" : "MISS"}; ` +
        `CLS delta ${cost.cls} (target ≤ ${TARGETS.cls}): ${pass.cls ? "pass" : "MISS"}`,
    );
    const requests = evidence.requests.map((r) => `${r.url} ${r.transferBytes} B`).join(", ");
    const scriptTime = evidence.scriptBootup.map((s) => `${s.totalMs} ms`).join(", ") || "under Lighthouse's 50 ms";
    const shifts = evidence.layoutShifts.map((s) => `${s.selector} ${round(Number(s.score), 4)}`).join(", ") || "none";
    console.log(
      `widget in the median run: ${requests}; script main-thread time ${scriptTime}; layout shifts: ${shifts}`,
    );
    if (stripped.strays.length) console.log(`unexpected requests to the stripped page's server: ${stripped.strays}`);

    for (const variant of ["with", "without"] as const)
      fs.writeFileSync(
        path.join(results, `storefront-${stamp}.${formFactor}.${variant}.lhr.json`),
        JSON.stringify(medianRun(variant)),
      );
    return {
      medians: { with: rounded(medians.with), without: rounded(medians.without) },
      delta,
      cost,
      pass,
      samples: { with: samples.with.map(rounded), without: samples.without.map(rounded) },
      widget: evidence,
      withoutWidget: {
        mainThreadMs: plainPage.mainThreadMs,
        totalBytes: plainPage.totalBytes,
        layoutShifts: plainPage.layoutShifts,
      },
      strays: stripped.strays,
      benchmarkIndex: median(reports.with.map((lhr) => lhr.environment.benchmarkIndex)),
    };
  }
} finally {
  await cleanUp();
}
