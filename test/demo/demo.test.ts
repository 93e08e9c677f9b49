import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "../support/wait.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Starts `npm run demo` on a fresh embedded database and resolves with everything it printed once it is listening. */
function startDemo(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; output: string }> {
  return new Promise((resolve, reject) => {
    // Its own process group, so that stopping it reaches the node process npm started, not only npm.
    const child = spawn("npm", ["run", "-s", "demo"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`demo did not start:\n${output}`)), 60_000);
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on("data", (chunk) => {
        output += chunk;
        if (output.includes("Ctrl-C stops the server")) {
          clearTimeout(timer);
          resolve({ child, output });
        }
      });
    }
    child.on("exit", (code) => reject(new Error(`demo exited with ${code}:\n${output}`)));
  });
}

describe("npm run demo", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-demo-"));
  // Port 0: the system picks a free one and the demo prints it (a random fixed port can collide with another test's).
  const env = { ...process.env, DATABASE_URL: `file:${dir}/demo.sqlite`, DATA_DIR: dir, PORT: "0", LOG_LEVEL: "warn" };
  let demo: { child: ChildProcess; output: string };
  let reference = "";

  beforeAll(async () => (demo = await startDemo(env)));
  afterAll(() => {
    if (demo?.child.pid) process.kill(-demo.child.pid, "SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("prints keys and a quote → confirm walkthrough that works when pasted into a shell", () => {
    assert.match(demo.output, /publishable key {2}wk_test_[0-9A-Za-z]{32}/);
    assert.match(demo.output, /secret key {7}mch_test_[0-9A-Za-z]{32}/);
    const walkthrough = demo.output.slice(demo.output.indexOf("ORDER_ID="), demo.output.indexOf("3) See it"));
    const script = walkthrough
      .split("\n")
      .filter((line) => !/^\d\)/.test(line))
      .join("\n")
      .replaceAll("/tmp/quote.", `${dir}/quote.`);
    const result = execFileSync("bash", ["-euo", "pipefail", "-c", script], { encoding: "utf8" });
    const confirmation = JSON.parse(result.slice(result.lastIndexOf('{"referenceNumber"')));
    assert.match(confirmation.referenceNumber, /^CLM-[0-9]{4}-[0-9A-HJKMNP-TV-Z]{8}$/);
    assert.equal(confirmation.status, "confirmed");
    reference = confirmation.referenceNumber;
  });

  it("writes the buyer's welcome e-mail for that plan where it says (no SMTP server needed)", async () => {
    const mailDir = path.join(dir, "mail");
    assert.ok(demo.output.includes(`${mailDir}/`), "the walkthrough says where e-mails go");
    const found = await waitFor(
      () => {
        const files = fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : [];
        return files
          .map((file) => fs.readFileSync(path.join(mailDir, file), "utf8"))
          .find((raw) => raw.includes(reference));
      },
      { intervalMs: 100, what: "an .eml with the reference number" },
    );
    assert.ok(found, "an .eml with the reference number");
    assert.match(found, /^To: buyer@example\.com$/m);
  });

  it("prints the /demo storefront URL, which serves the checkout page and the widget script", async () => {
    const demoUrl = demo.output.match(/Storefront demo: (http:\/\/\S+\/demo)/)?.[1];
    assert.ok(demoUrl, "the /demo URL is printed");
    const page = await fetch(demoUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<service-widget publishable-key="wk_test_/);
    const script = await fetch(new URL("/widget/v1/service-widget.js", demoUrl));
    assert.equal(script.status, 200);
    assert.match(script.headers.get("cache-control") ?? "", /max-age=300/);
  });

  it("seeds idempotently: seed:demo prints the same keys the demo printed", () => {
    const seeded = JSON.parse(
      execFileSync("npm", ["run", "-s", "seed:demo", "--", "--json"], { cwd: ROOT, env, encoding: "utf8" }).trim(),
    );
    assert.deepEqual(Object.keys(seeded), ["merchantId", "programId", "publishableKey", "secretKey"]);
    assert.ok(demo.output.includes(seeded.secretKey));
    assert.ok(demo.output.includes(seeded.programId));
  });
});
