// npm test: everything CI checks:
//   1. prisma generate (both clients; the tests and the drift check load them)   2. at once: all tests (one
//   `vitest run`) and the checks — Prisma schema copy + migration drift, type-check, lint and format check (when
//   configured), `shopify app build` (the extensions, as deploy bundles them; it must leave each committed shopify.d.ts
//   as it is). Each check is its own process at a lower CPU priority (nice 10): the test files spend much of their time
//   waiting (on leases, servers starting, Chromium), and the checks fill those gaps instead of holding both cores for a
//   minute and a half before the first test; a test with a deadline keeps the CPU it needs. None reads what another
//   writes. A failing check prints its output when it ends; the tests go on (stopping them would leave their servers
//   and child processes behind) and the run fails.
// Exits with vitest's code, or 1 when a check failed. Before the end, the ten slowest test files (where the minutes
// go); the last line of the output is the plain summary "N passed, N failed" (", N skipped" when some were), read from
// vitest's JSON report, because CI reads the closing line.
// `npm run test:unit` is the fast loop (vitest's "unit" project).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import {
  buildProblems,
  readTypeFiles,
  SHOPIFY_APP_BUILD_ARGS,
  SHOPIFY_APP_BUILD_ENV,
  SHOPIFY_CLI,
  typesRewritten,
} from "./shopify-app-build.ts";
import { dropRunTemplates, TEST_RUN_ENV } from "../test/support/databases.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const bin = (...parts: string[]) => path.join(ROOT, "node_modules", ...parts);
const node = process.execPath;
/**
 * Node's module compile cache (V8's code cache, on disk) for every Node process of the run: the test files start the
 * web app, the API and the workers about a hundred times, and each start compiles the same modules again. Node checks
 * each entry against its module's source. Measured on a web app start, five each: 1.67–1.98 → 1.46–1.67 s of CPU to
 * "listening"; seven integration files 44 and 46 → 41 and 43 CPU seconds; the type-check about 1.5 s less.
 */
const COMPILE_CACHE = path.join(ROOT, "node_modules", ".cache", "node-compile-cache");

interface Step {
  title: string;
  command: string[];
  /** "before": before the tests, side by side; "beside": beside the tests, at a lower CPU priority. */
  runs: "before" | "beside";
  /** Added to the environment. */
  env?: Record<string, string>;
  /** What fails the step even when it exits 0: lines of its output, or what a check after it finds. */
  problems?: (output: string) => string[];
}

const steps: Step[] = [
  {
    title: "prisma generate (SQLite client)",
    command: [node, bin("prisma", "build", "index.js"), "generate", "--no-hints"],
    runs: "before",
  },
  {
    title: "prisma generate (PostgreSQL client)",
    command: [
      node,
      bin("prisma", "build", "index.js"),
      "generate",
      "--no-hints",
      "--schema",
      "prisma/postgresql/schema.prisma",
    ],
    runs: "before",
  },
  { title: "prisma schemas + migration drift", command: [node, "scripts/check-migration-drift.ts"], runs: "beside" },
  // One program for the whole repository (server, app, scripts, tests, packages): the files both halves import are
  // checked once.
  { title: "type-check", command: [node, bin("typescript", "bin", "tsc"), "--noEmit", "-p", "."], runs: "beside" },
];
// Each runs once its configuration is in the repository.
if (fs.existsSync(path.join(ROOT, "eslint.config.js"))) {
  steps.push({ title: "lint", command: [node, bin("eslint", "bin", "eslint.js"), "."], runs: "beside" });
}
if (fs.existsSync(path.join(ROOT, ".prettierrc.json"))) {
  steps.push({
    title: "format check",
    command: [node, bin("prettier", "bin", "prettier.cjs"), "--check", "."],
    runs: "beside",
  });
}
// The build rewrites each UI extension's shopify.d.ts: it must write the committed one (read here, before it runs).
const typesBefore = readTypeFiles();
steps.push({
  title: "shopify app build",
  command: [node, SHOPIFY_CLI, ...SHOPIFY_APP_BUILD_ARGS],
  env: SHOPIFY_APP_BUILD_ENV,
  problems: (output) => [...buildProblems(output), ...typesRewritten(typesBefore)],
  runs: "beside",
});

const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
const heading = (phase: number, title: string) => console.log(`\n==> [${phase}/2] ${title}`);

/** Runs a command from the repository root; resolves to its exit code and, when captured, its output. */
function run(command: string[], options: { capture?: boolean; env?: Record<string, string> } = {}) {
  const child = spawn(command[0], command.slice(1), {
    cwd: ROOT,
    stdio: ["ignore", options.capture ? "pipe" : "inherit", options.capture ? "pipe" : "inherit"],
    env: {
      NODE_COMPILE_CACHE: COMPILE_CACHE,
      ...process.env,
      ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {}),
      ...options.env,
    },
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  return new Promise<{ code: number; output: string }>((resolve) => {
    child.on("error", (error) => resolve({ code: 127, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

/** Runs a step with its output captured; prints one line when it ends, and its output when it fails. */
async function runStep(step: Step): Promise<boolean> {
  const stepStarted = Date.now();
  // `nice` from coreutils rather than setPriority after the spawn: the process and every thread and child it starts
  // run at the lower priority from their first instruction.
  const command = step.runs === "beside" ? ["nice", "-n", "10", ...step.command] : step.command;
  const { code, output } = await run(command, { capture: true, env: step.env });
  const problems = step.problems?.(output) ?? [];
  if (code === 0 && problems.length === 0) {
    console.log(`✔ ${step.title} (${seconds(stepStarted)})`);
    return true;
  }
  const reason = code !== 0 ? `exit ${code}` : `exit 0 but ${problems.length} problem(s)`;
  console.log(`\n--- ${step.title}\n${output.trimEnd()}`);
  if (problems.length > 0) console.log(`problems:\n${problems.join("\n")}`);
  console.error(`✖ ${step.title} failed (${reason}, ${seconds(stepStarted)})`);
  return false;
}

const beforeTests = steps.filter((step) => step.runs === "before");
heading(1, beforeTests.map((step) => step.title).join(", "));
if ((await Promise.all(beforeTests.map(runStep))).includes(false)) {
  console.error("\nthe tests did not run.");
  process.exit(1);
}

const besideTests = steps.filter((step) => step.runs === "beside");
heading(2, `tests (vitest), and beside them: ${besideTests.map((step) => step.title).join(", ")}`);
const testsStarted = Date.now();
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-vitest-"));
const reportFile = path.join(reportDir, "report.json");
// The run's migrated template databases are its own, and removed when it ends (test/support/databases.ts).
const runId = `r${randomBytes(4).toString("hex")}`;
const vitest = run(
  [
    node,
    bin("vitest", "vitest.mjs"),
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=${reportFile}`,
  ],
  { env: { [TEST_RUN_ENV]: runId } },
);
const checksFailed = Promise.all(besideTests.map(runStep)).then((passed) =>
  besideTests.filter((_, index) => !passed[index]).map((step) => step.title),
);
const [{ code: vitestCode }, failedChecks] = await Promise.all([vitest, checksFailed]);
const code = failedChecks.length > 0 ? 1 : vitestCode;
await dropRunTemplates(runId).catch((error: unknown) =>
  console.error(`could not remove the run's templates: ${error}`),
);
const report = readReport(reportFile);
fs.rmSync(reportDir, { recursive: true, force: true });
if (report) console.log(`\n${slowestFiles(report, 10)}`);
console.log(`\n==> done in ${seconds(started)} (tests ${seconds(testsStarted)}), vitest exit code ${vitestCode}`);
if (failedChecks.length > 0) console.log(`failed check(s), their output above: ${failedChecks.join(", ")}`);
// A failed check counts as a failed test in the closing line, which is what CI reads.
console.log(
  report
    ? summaryOf(report, failedChecks.length)
    : `0 passed, ${1 + failedChecks.length} failed (vitest wrote no report)`,
);
process.exitCode = code;

/** What these lines read of vitest's JSON report. */
interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: {
    name: string;
    status: string;
    startTime: number;
    endTime: number;
    assertionResults: { status: string }[];
  }[];
}

function readReport(file: string): Report | undefined {
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Report) : undefined;
}

/** The `count` test files that took longest (wall time from their start to their end, setup included). */
function slowestFiles(report: Report, count: number): string {
  const files = report.testResults
    .map((result) => ({ file: path.relative(ROOT, result.name), ms: result.endTime - result.startTime }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count);
  const lines = files.map(({ file, ms }) => `${(ms / 1000).toFixed(1).padStart(7)}s  ${file}`);
  return [`The ${files.length} slowest test files:`, ...lines].join("\n");
}

/** "N passed, N failed[, N skipped]"; `failedChecks` are counted as failed. */
function summaryOf(report: Report, failedChecks: number): string {
  // A file that fails before its tests run (an import error, a failing beforeAll) has no failed test: count the file.
  const brokenFiles = report.testResults.filter(
    (result) => result.status === "failed" && !result.assertionResults.some((test) => test.status === "failed"),
  ).length;
  const failed = report.numFailedTests + brokenFiles + failedChecks;
  const skipped = report.numPendingTests + report.numTodoTests;
  return `${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
}
