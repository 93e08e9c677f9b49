import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { importedFrom, importGraph } from "../support/import-graph.ts";
import { waitFor } from "../support/wait.ts";
import { demoEnvironment, startDemo, type DemoProcess as Demo } from "../support/demo-process.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

const originOf = (output: string) => output.match(/the web app on (http:\/\/127\.0\.0\.1:\d+)/)?.[1];

describe("npm run demo", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-demo-"));
  const serverModulesLoaded = path.join(dir, "server-modules-loaded.txt");
  const env = demoEnvironment(dir, {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${pathToFileURL(path.join(ROOT, "test/support/record-loads.mjs"))}`,
    RECORD_LOADS_OF: path.join("scripts", "demo.ts"),
    RECORD_LOADS_UNDER: path.join(ROOT, "server") + path.sep,
    RECORD_LOADS_FILE: serverModulesLoaded,
  });
  let demo: Demo;
  let reference = "";

  beforeAll(async () => {
    demo = await startDemo(env);
  }, 300_000);
  afterAll(() => {
    if (demo?.child.pid) process.kill(-demo.child.pid, "SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is ready within 60 s when the app is already built, on 127.0.0.1", () => {
    assert.ok(originOf(demo.output), "prints the web app's origin on 127.0.0.1");
    if (!demo.built) assert.ok(demo.readyMs < 60_000, `ready after ${demo.readyMs} ms`);
  });

  it("logs no warning before its block but the one about the setting it turns on (private webhook URLs)", () => {
    const logged = demo.output.split("\n").filter((line) => line.startsWith('{"level":'));
    assert.deepEqual(
      logged.filter((line) => !line.includes("WEBHOOK_ALLOW_PRIVATE_URLS=on")),
      [],
    );
  });

  it("prints keys and a quote → confirm walkthrough that works when pasted into a shell", async () => {
    assert.match(demo.output, /publishable key {2}wk_test_[0-9A-Za-z]{32}/);
    assert.match(demo.output, /secret key {7}mch_test_[0-9A-Za-z]{32}/);
    const walkthrough = demo.output.slice(demo.output.indexOf("ORDER_ID="), demo.output.indexOf("3) See it"));
    const script = walkthrough
      .split("\n")
      .filter((line) => !/^\d\)/.test(line))
      .join("\n")
      .replaceAll("/tmp/quote.", `${dir}/quote.`);
    const { stdout: result } = await promisify(execFile)("bash", ["-euo", "pipefail", "-c", script], {
      encoding: "utf8",
    });
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

  it("loads the core once: of server/, its own process loads only the configuration's modules and the widget's version", () => {
    // The rest of the core comes with the build (its entry module); the seeding runs in a process of its own.
    const loaded = fs.readFileSync(serverModulesLoaded, "utf8").split("\n").filter(Boolean);
    assert.ok(loaded.includes(path.join(ROOT, "server", "config.ts")), "the hook recorded the demo's own loads");
    const allowed = importedFrom(importGraph(ROOT, ["server", "packages/contract/src"]), [
      path.join("server", "config.ts"),
      path.join("server", "startup-warnings.ts"),
      path.join("server", "widget-assets.ts"),
    ]);
    assert.deepEqual(
      loaded.map((file) => path.relative(ROOT, file)).filter((file) => !allowed.has(file)),
      [],
    );
  });

  it("seeds idempotently: seed:demo prints the same keys the demo printed", async () => {
    const { stdout } = await promisify(execFile)("npm", ["run", "-s", "seed:demo", "--", "--json"], {
      cwd: ROOT,
      env,
      encoding: "utf8",
    });
    const seeded = JSON.parse(stdout.trim());
    assert.deepEqual(Object.keys(seeded), ["merchantId", "programId", "publishableKey", "secretKey"]);
    assert.ok(demo.output.includes(seeded.secretKey));
    assert.ok(demo.output.includes(seeded.programId));
  });
});

describe("npm run demo: the whole web app, seeded", () => {
  const dirs = [
    fs.mkdtempSync(path.join(os.tmpdir(), "pp-demo-a-")),
    fs.mkdtempSync(path.join(os.tmpdir(), "pp-demo-b-")),
  ];
  let demos: Demo[] = [];

  // Two side by side: each its own port, database and data directory.
  beforeAll(async () => {
    demos = await Promise.all(dirs.map((dir) => startDemo(demoEnvironment(dir))));
  }, 300_000);
  afterAll(() => {
    for (const demo of demos) if (demo.child.pid) process.kill(-demo.child.pid, "SIGTERM");
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("two demos run side by side, each answering on its own port with its own keys", async () => {
    const [a, b] = demos.map((demo) => originOf(demo.output)!);
    assert.notEqual(a, b);
    for (const [i, origin] of [a, b].entries()) {
      const secretKey = demos[i].output.match(/mch_test_[0-9A-Za-z]{32}/)![0];
      const purchases = await fetch(`${origin}/api/v1/purchases`, {
        headers: { Authorization: `Bearer ${secretKey}` },
      });
      assert.equal(purchases.status, 200, origin);
      const references = (await purchases.json()).data.map((p: { referenceNumber: string }) => p.referenceNumber);
      const [own, other] = [i, 1 - i].map((j) => demos[j].output.match(/Sample order: +(CLM-\S+),/)![1]);
      assert.ok(references.includes(own), "its own sample order");
      assert.ok(!references.includes(other), "not the other demo's");
    }
  });

  it("prints the sample order's reference and e-mail; the order is protected and has a claim to look at", async () => {
    const [demo] = demos;
    const origin = originOf(demo.output)!;
    const sample = demo.output.match(/Sample order: +(CLM-\S+), bought by (\S+):/);
    assert.ok(sample, "the sample order is printed");
    const [, referenceNumber, email] = sample;
    assert.equal(email, "sample.buyer@example.com");
    const secretKey = demo.output.match(/mch_test_[0-9A-Za-z]{32}/)![0];
    const auth = { headers: { Authorization: `Bearer ${secretKey}` } };
    const [purchase] = (await (await fetch(`${origin}/api/v1/purchases?order_id=demo-order-1001`, auth)).json()).data;
    assert.equal(purchase.referenceNumber, referenceNumber);
    assert.equal(purchase.status, "active");
    const claims = (
      await (await fetch(`${origin}/api/v1/merchant/claims?reference_number=${referenceNumber}`, auth)).json()
    ).data;
    assert.equal(claims.length, 1);
    assert.equal(claims[0].status, "submitted");
    // Printed as a command the reader can paste.
    assert.ok(demo.output.includes(`/merchant/claims?reference_number=${referenceNumber}`));
  });

  it("prints a claims-console sign-in link that signs in an admin, whose queue shows the sample's claim", async () => {
    const [demo] = demos;
    const origin = originOf(demo.output)!;
    const link = demo.output.match(/Claims console: +(http:\/\/\S+\/ops\/sign-in\/[\w-]{43})/)?.[1];
    assert.ok(link, "the sign-in link is printed");
    assert.ok(link.startsWith(`${origin}/ops/sign-in/`));
    // GET shows the button and spends nothing; the POST (from the page's origin) signs in.
    assert.equal((await fetch(link)).status, 200);
    const signedIn = await fetch(link, { method: "POST", headers: { Origin: origin }, redirect: "manual" });
    assert.equal(signedIn.status, 302);
    assert.equal(signedIn.headers.get("location"), "/ops");
    const cookie = signedIn.headers.get("set-cookie")?.match(/ops_session=[^;]+/)?.[0];
    assert.ok(cookie, "a session cookie");
    const queue = await fetch(`${origin}/ops`, { headers: { Cookie: cookie } });
    assert.equal(queue.status, 200);
    const html = await queue.text();
    assert.match(html, /ops@demo\.localhost/);
    const sample = demo.output.match(/Sample order: +(CLM-\S+),/)![1];
    assert.ok(html.includes(sample), "the sample's claim waits in the queue");
    // The printed link works once.
    const again = await fetch(link, { method: "POST", headers: { Origin: origin }, redirect: "manual" });
    assert.notEqual(again.status, 302);
  });

  it("prints a dashboard sign-in link that signs in the demo merchant's owner, whose Overview shows the demo store", async () => {
    const [demo] = demos;
    const origin = originOf(demo.output)!;
    const link = demo.output.match(/Dashboard: +(http:\/\/\S+\/dashboard\/sign-in\/[\w-]{43})/)?.[1];
    assert.ok(link, "the sign-in link is printed");
    assert.ok(link.startsWith(`${origin}/dashboard/sign-in/`));
    assert.equal((await fetch(link)).status, 200);
    const signedIn = await fetch(link, { method: "POST", headers: { Origin: origin }, redirect: "manual" });
    assert.equal(signedIn.status, 302);
    assert.equal(signedIn.headers.get("location"), "/dashboard");
    const cookie = signedIn.headers.get("set-cookie")?.match(/dashboard_session=[^;]+/)?.[0];
    assert.ok(cookie, "a session cookie");
    const overview = await fetch(`${origin}/dashboard`, { headers: { Cookie: cookie } });
    assert.equal(overview.status, 200);
    const html = await overview.text();
    assert.match(html, /Demo Store/);
    assert.match(html, /owner@demo\.localhost/);
  });

  it("serves the Remix app's pages: /app says Shopify is not configured (printed as such)", async () => {
    const [demo] = demos;
    assert.match(demo.output, /Shopify admin: +http:\S+\/app +\(the embedded app; says what is missing/);
    const response = await fetch(`${originOf(demo.output)}/app`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /Demo mode/);
  });

  it("seeds once: restarted on the same database, it prints the same keys and sample order", async () => {
    const [first] = demos;
    process.kill(-first.child.pid!, "SIGTERM");
    await once(first.child, "exit");
    const again = await startDemo(demoEnvironment(dirs[0]));
    demos[0] = again;
    const sampleOf = (output: string) => output.match(/Sample order: +(CLM-\S+)/)?.[1];
    assert.equal(sampleOf(again.output), sampleOf(first.output));
    assert.equal(again.output.match(/mch_test_\w+/)?.[0], first.output.match(/mch_test_\w+/)?.[0]);
  });
});

describe("npm run demo stopped while it seeds", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-demo-stopped-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  // npm and the bootstrap pass a SIGTERM to the demo's process alone. The seeding process is held stopped
  // (SIGSTOP) until the demo has passed the signal on, which shows as a SIGTERM pending in its /proc status.
  it("passes a SIGTERM on to its seeding process and dies of it once the seeding has stopped", async () => {
    const demo = spawn(process.execPath, [path.join(ROOT, "scripts/demo.ts")], {
      cwd: ROOT,
      env: demoEnvironment(dir),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    for (const stream of [demo.stdout, demo.stderr]) stream.on("data", (chunk) => (output += chunk));
    const exited = once(demo, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
    let stopped: number | undefined;
    try {
      const seeding = await waitFor(() => seedingChildOf(demo.pid!), {
        timeoutMs: 120_000,
        what: "the demo's seeding process",
      });
      process.kill(seeding, "SIGSTOP");
      stopped = seeding;
      // Each thread stops when it next runs. One not stopped yet would take the SIGTERM (the lowest signal pending is
      // taken first) and it would never show as pending.
      await waitFor(() => allThreadsStopped(seeding), { what: "every thread of the seeding process to stop" });
      demo.kill("SIGTERM");
      await waitFor(() => sigtermPending(seeding), { timeoutMs: 20_000, what: "a SIGTERM passed on to the seeding" });
      process.kill(seeding, "SIGCONT");
      const [code, signal] = await exited;
      assert.equal(signal, "SIGTERM", `exit ${code}:\n${output}`);
      assert.equal(running(seeding), false, "the seeding process is gone when the demo has exited");
    } finally {
      // What a failed run leaves: a demo still waiting, or a seeding process stopped with no one to end it.
      if (demo.exitCode === null && demo.signalCode === null) demo.kill("SIGKILL");
      if (stopped && running(stopped)) process.kill(stopped, "SIGKILL");
    }
  }, 180_000);
});

/** The pid of `parent`'s child running scripts/seed-demo.ts, from /proc. */
function seedingChildOf(parent: number): number | undefined {
  const children = fs.readFileSync(`/proc/${parent}/task/${parent}/children`, "utf8").split(" ").filter(Boolean);
  return children.map(Number).find((pid) => {
    try {
      return fs
        .readFileSync(`/proc/${pid}/cmdline`, "utf8")
        .split("\0")
        .some((arg) => arg.endsWith("seed-demo.ts"));
    } catch {
      return false; // exited since the list was read
    }
  });
}

/** Whether a SIGTERM (signal 15, bit 14) waits in the process's shared pending set. */
function sigtermPending(pid: number): boolean {
  const pending = /^ShdPnd:\s*([0-9a-f]+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "0";
  return (BigInt(`0x${pending}`) & (1n << 14n)) !== 0n;
}

/** Whether every thread of the process is in the stopped state ("T" in its /proc stat, after the name). */
function allThreadsStopped(pid: number): boolean {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .every(
      (thread) => fs.readFileSync(`/proc/${pid}/task/${thread}/stat`, "utf8").split(")").at(-1)!.trimStart()[0] === "T",
    );
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
