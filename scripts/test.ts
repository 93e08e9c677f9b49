// npm test: everything CI checks, in order, stopping at the first failing step:
//   1. prisma generate   2. Prisma schema copy + migration drift   3. type-check   4. all tests (node:test).
// Exits with the test runner's code. The runner's summary lines ("ℹ tests N", "ℹ pass N", "ℹ fail N", …) are
// repeated as the last lines of the output, after any failure details, because CI reads the closing lines.
// `npm run test:unit` is the fast loop (server unit tests only).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const bin = (...parts: string[]) => path.join(ROOT, "node_modules", ...parts);
const node = process.execPath;

interface Step {
  title: string;
  command: string[];
  /** Show the output only when the step fails. */
  quiet?: boolean;
}

function testFiles(): string[] {
  const files: string[] = [];
  const walk = (relative: string, skip: (relative: string) => boolean = () => false) => {
    const absolute = path.join(ROOT, relative);
    if (!fs.existsSync(absolute)) return;
    for (const entry of fs.readdirSync(absolute, { withFileTypes: true })) {
      const child = path.posix.join(relative, entry.name);
      if (skip(child) || entry.name === "node_modules") continue;
      if (entry.isDirectory()) walk(child, skip);
      else if (entry.isFile() && entry.name.endsWith(".test.ts")) files.push(child);
    }
  };
  walk("server");
  walk("test", (child) => child === "test/support");
  const packages = path.join(ROOT, "packages");
  if (fs.existsSync(packages)) {
    for (const entry of fs.readdirSync(packages, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.posix.join("packages", entry.name, "test"));
    }
  }
  return files.sort();
}

const steps: Step[] = [
  { title: "prisma generate (SQLite client)", command: [node, bin("prisma", "build", "index.js"), "generate", "--no-hints"], quiet: true },
  {
    title: "prisma generate (PostgreSQL client)",
    command: [node, bin("prisma", "build", "index.js"), "generate", "--no-hints", "--schema", "prisma/postgresql/schema.prisma"],
    quiet: true,
  },
  { title: "prisma schemas + migration drift", command: [node, "scripts/check-migration-drift.ts"] },
  { title: "type-check (tsconfig.json)", command: [node, bin("typescript", "bin", "tsc"), "--noEmit", "-p", "."] },
];
if (fs.existsSync(path.join(ROOT, "tsconfig.app.json"))) {
  steps.push({ title: "type-check (tsconfig.app.json)", command: [node, bin("typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.app.json"] });
}

const files = testFiles();
const total = steps.length + 1;
const started = Date.now();
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)}s`;
const heading = (index: number, title: string) => console.log(`\n==> [${index}/${total}] ${title}`);

/** Runs a command from the repository root; resolves to its exit code and (when piped) its output. */
function run(command: string[], options: { capture?: boolean; onStdout?: (chunk: string) => void } = {}) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: ROOT,
      stdio: ["ignore", options.capture || options.onStdout ? "pipe" : "inherit", options.capture ? "pipe" : "inherit"],
      env: { ...process.env, ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: "1" } : {}) },
    });
    let output = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      options.onStdout?.(chunk);
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.on("error", (error) => resolve({ code: 127, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), output }));
  });
}

for (const [i, step] of steps.entries()) {
  heading(i + 1, step.title);
  const stepStarted = Date.now();
  const { code, output } = await run(step.command, { capture: step.quiet });
  if (code !== 0) {
    if (step.quiet) process.stdout.write(output);
    console.error(`\n✖ ${step.title} failed (exit ${code}, ${seconds(stepStarted)}); the tests did not run.`);
    process.exit(code);
  }
  console.log(`✔ ${step.title} (${seconds(stepStarted)})`);
}

heading(total, `tests: ${files.length} files`);
if (files.length === 0) {
  console.error("✖ no test files found under server/, test/ or packages/*/test/");
  process.exit(1);
}
const testsStarted = Date.now();
const { code, output } = await run(
  [node, "--test", "--test-concurrency=2", "--test-reporter=spec", ...files],
  { onStdout: (chunk) => process.stdout.write(chunk) },
);
// eslint-disable-next-line no-control-regex
const plain = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
const summary = plain.filter((line) => /^ℹ (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$/.test(line.trim()));
console.log(`\n==> done in ${seconds(started)} (tests ${seconds(testsStarted)}), test runner exit code ${code}`);
// The summary again, last: a failing run prints failure details after node's own summary.
for (const line of summary.slice(-8)) console.log(line.trim());
process.exitCode = code;
