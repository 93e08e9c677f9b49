// The PHP SDK's PHPUnit suite on PHP 8.4 (WebAssembly) inside `npm test`: the servers start, PHPUnit runs once
// (--log-junit) while the file loads, and each PHP test case becomes a test here, so a PHP failure shows by name.
// Also checked from the Node side: the headless payloads the TypeScript and PHP SDKs sent reached the recorder as
// identical bytes.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT, runPhpUnit } from "../../scripts/php-runtime.ts";
import { headlessCases, startPhpTestServers, type RecordedBytes } from "./servers.ts";

interface PhpTestCase {
  name: string;
  className: string;
  /** The failure or error text, null when it passed. */
  failure: string | null;
  skipped: boolean;
}

const junitDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-phpunit-"));
const junitFile = path.join(junitDir, "junit.xml");
let output = "";
let exitCode: number | Error;
let recorded: RecordedBytes[] = [];
const servers = await startPhpTestServers();
try {
  const capture = (chunk: Uint8Array) => void (output += Buffer.from(chunk).toString("utf8"));
  exitCode = await runPhpUnit(["--log-junit", junitFile], { env: servers.env, stdout: capture, stderr: capture }).catch(
    (error: Error) => error,
  );
  recorded = [...servers.recorded];
} finally {
  await servers.close();
}
const cases = fs.existsSync(junitFile) ? parseJunit(fs.readFileSync(junitFile, "utf8")) : [];
fs.rmSync(junitDir, { recursive: true, force: true });

describe("PHP SDK (PHPUnit on PHP 8.4)", () => {
  it("PHPUnit ran every test file and exited 0", () => {
    assert.ok(
      !(exitCode instanceof Error),
      `PHP crashed: ${exitCode instanceof Error ? exitCode.stack : ""}\n${output}`,
    );
    assert.ok(cases.length >= 30, `only ${cases.length} PHP test cases reported\n${output}`);
    assert.equal(exitCode, 0, output);
  });

  for (const phpCase of cases) {
    it.skipIf(phpCase.skipped)(`${phpCase.className}::${phpCase.name}`, () => {
      if (phpCase.failure !== null) assert.fail(phpCase.failure);
    });
  }

  it("the same headless payload sent by the TypeScript SDK and the PHP SDK arrives at the recorder as identical bytes", () => {
    const bySdk = (prefix: string) =>
      new Map(
        recorded
          .filter((request) => request.url.startsWith(`/${prefix}/`))
          .map((request) => [request.headers["idempotency-key"], request]),
      );
    const typescript = bySdk("ts");
    const php = bySdk("php");
    for (const { name, operation, idempotency_key } of headlessCases()) {
      const ts = typescript.get(idempotency_key);
      const sent = php.get(idempotency_key);
      assert.ok(ts && sent, `${name}: both SDKs sent it`);
      assert.equal(ts.url, `/ts/api/v1/headless/${operation}`);
      assert.equal(sent.url, `/php/api/v1/headless/${operation}`);
      assert.equal(sent.body.toString("hex"), ts.body.toString("hex"), name);
      assert.equal(sent.headers["content-type"], "application/json");
    }
  });
});

describe("npm run php (scripts/php.ts)", () => {
  it("runs a script on PHP 8.4 with the SDK autoloaded, passes the environment and exits with PHP's code", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-php-"));
    const script = path.join(dir, "exit.php");
    fs.writeFileSync(
      script,
      '<?php echo PHP_VERSION, " ", PurchaseProtection\\Client::SDK_VERSION, " ", getenv("PP_PROBE"), "\\n"; exit(7);',
    );
    try {
      const run = spawnSync(process.execPath, ["scripts/php.ts", script], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, PP_PROBE: "probe" },
      });
      assert.equal(run.status, 7, run.stderr);
      assert.match(run.stdout, /^8\.4\.\d+ 0\.1\.0 probe\n$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The test cases of a PHPUnit 9 JUnit report (one <testcase> per test; <failure>, <error> or <skipped> inside). */
function parseJunit(xml: string): PhpTestCase[] {
  const unescape = (text: string) =>
    text
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
      .replace(/&amp;/g, "&");
  const cases: PhpTestCase[] = [];
  for (const match of xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)) {
    const attribute = (name: string) => unescape(new RegExp(`\\b${name}="([^"]*)"`).exec(match[1]!)?.[1] ?? "");
    const body = match[3] ?? "";
    const failure = /<(failure|error|warning)\b[^>]*>([\s\S]*?)<\/\1>/.exec(body);
    cases.push({
      name: attribute("name"),
      className: attribute("class"),
      failure: failure ? unescape(failure[2]!) : null,
      skipped: /<skipped\b/.test(body),
    });
  }
  return cases;
}
