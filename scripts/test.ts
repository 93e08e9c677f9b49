// npm test: everything CI checks, stopping at the first failing phase:
//   1. prisma generate (both clients)   2. at once: Prisma schema copy + migration drift, type-check, lint and format
//   check (when configured), `shopify app build` (the extensions, as deploy bundles them)   3. all tests (one
//   `vitest run`). The checks of a phase run side by side (each its own process; their output is shown when one fails):
//   none reads what another writes, and one after the other they left a core idle for most of a minute.
// Exits with vitest's code. Before the end, the ten slowest test files (where the minutes go); the last line of the
// output is the plain summary "N passed, N failed" (", N skipped" when some were), read from vitest's JSON report,
// because CI reads the closing line.
// `npm run test:unit` is the fast loop (vitest's "unit" project).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { buildProblems, SHOPIFY_APP_BUILD_ARGS, SHOPIFY_APP_BUILD_ENV, SHOPIFY_CLI } from "./shopify-app-build.ts";
import { dropRunTemplates, TEST_RUN_ENV } from "../test/support/databases.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const bin = (...parts: string[]) => path.join(ROOT, "node_modules", ...parts);
const node = process.execPath;

interface Step {
  title: string;
  command: string[];
  /** Runs after the phase before it, beside the other steps of its phase. */
  phase: 1 | 2;
  /** Added to the environment. */
  env?: Record<string, string>;
  /** The output lines that fail the step even when it exits 0. */
  problems?: (output: string) => string[];
}

const steps: Step[] = [
  {
    title: "prisma generate (SQLite client)",
    command: [node, bin("prisma", "build", "index.js"), "generate", "--no-hints"],
    phase: 1,
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
    phase: 1,
  },
  { title: "prisma schemas + migration drift", command: [node, "scripts/check-migration-drift.ts"], phase: 2 },
  {
    title: "type-check (tsconfig.json)",
    command: [node, bin("typescript", "bin", "tsc"), "--noEmit", "-p", "."],
    phase: 2,
  },
];
if (fs.existsSync(path.join(ROOT, "tsconfig.app.json"))) {
  steps.push({
    title: "type-check (tsconfig.app.json)",
    command: [node, bin("typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.app.json"],
    phase: 2,
  });
}
// Each runs once its configuration is in the repository.
if (fs.existsSync(path.join(ROOT, "eslint.config.js"))) {
  steps.push({ title: "lint", command: [node, bin("eslint", "bin", "eslint.js"), "."], phase: 2 });
}
if (fs.existsSync(path.join(ROOT, ".prettierrc.json"))) {
  steps.push({
    title: "format check",
    command: [node, bin("prettier", "bin", "prettier.cjs"), "--check", "."],
    phase: 2,
  });
}
steps.push({
  title: "shopify app build",
  command: [node, SHOPIFY_CLI, ...SHOPIFY_APP_BUILD_ARGS],
  env: SHOPIFY_APP_BUILD_ENV,
  problems: buildProblems,
  phase: 2,
});

const PHASES = 3;
const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
const heading = (phase: number, title: string) => console.log(`\n==> [${phase}/${PHASES}] ${title}`);

/** Runs a command from the repository root; resolves to its exit code and, when captured, its output. */
function run(command: string[], options: { capture?: boolean; env?: Record<string, string> } = {}) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      stdio: ["ignore", options.capture ? "pipe" : "inherit", options.capture ? "pipe" : "inherit"],
      env: {
        ...process.env,
        ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {}),
        ...options.env,
      },
    });
    let output = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", (error) => resolve({ code: 127, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

/** Runs a step with its output captured; prints one line when it ends, and its output when it fails. */
async function runStep(step: Step): Promise<boolean> {
  const stepStarted = Date.now();
  const { code, output } = await run(step.command, { capture: true, env: step.env });
  const problems = step.problems?.(output) ?? [];
  if (code === 0 && problems.length === 0) {
    console.log(`✔ ${step.title} (${seconds(stepStarted)})`);
    return true;
  }
  const reason = code !== 0 ? `exit ${code}` : `exit 0 but ${problems.length} error/warning line(s)`;
  console.log(`\n--- ${step.title}\n${output.trimEnd()}`);
  console.error(`✖ ${step.title} failed (${reason}, ${seconds(stepStarted)})`);
  return false;
}

for (const phase of [1, 2] as const) {
  const phaseSteps = steps.filter((step) => step.phase === phase);
  heading(phase, phaseSteps.map((step) => step.title).join(", "));
  const passed = await Promise.all(phaseSteps.map(runStep));
  if (passed.includes(false)) {
    console.error("\nthe tests did not run.");
    process.exit(1);
  }
}

heading(PHASES, "tests (vitest)");
const testsStarted = Date.now();
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-vitest-"));
const reportFile = path.join(reportDir, "report.json");
// The run's migrated template databases are its own, and removed when it ends (test/support/databases.ts).
const runId = `r${randomBytes(4).toString("hex")}`;
const { code } = await run(
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
await dropRunTemplates(runId).catch((error: unknown) =>
  console.error(`could not remove the run's templates: ${error}`),
);
const report = readReport(reportFile);
fs.rmSync(reportDir, { recursive: true, force: true });
if (report) console.log(`\n${slowestFiles(report, 10)}`);
console.log(`\n==> done in ${seconds(started)} (tests ${seconds(testsStarted)}), vitest exit code ${code}`);
console.log(report ? summaryOf(report) : "0 passed, 1 failed (vitest wrote no report)");
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

/** "N passed, N failed[, N skipped]". */
function summaryOf(report: Report): string {
  // A file that fails before its tests run (an import error, a failing beforeAll) has no failed test: count the file.
  const brokenFiles = report.testResults.filter(
    (result) => result.status === "failed" && !result.assertionResults.some((test) => test.status === "failed"),
  ).length;
  const failed = report.numFailedTests + brokenFiles;
  const skipped = report.numPendingTests + report.numTodoTests;
  return `${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
}
