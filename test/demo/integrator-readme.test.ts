// The integrator's first hour, as docs/sdks.md writes it (issue 28): the fenced blocks marked `<!-- integrator: NAME -->`
// in docs/sdks.md and the SDKs' READMEs run as written, in a fresh project directory, from a shell whose Node is the
// system's (not the Node 22 this suite runs under), against the process `npm run demo` starts, with the keys it
// prints: the TypeScript SDK from a packed tarball and the PHP SDK through a Composer path repository each confirm a
// plan (CLM-…). Also over that demo: /app's "not configured" page (the SCOPES of shopify.app.toml, the demo's pages;
// Chromium, axe-core, 390/1280 px screenshots) and a terminal that stays readable (no stack trace per favicon).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { parse } from "smol-toml";
import { REFERENCE_NUMBER_PATTERN } from "@purchase-protection/contract";
import { runPhp } from "../../scripts/php-runtime.ts";
import { accessScopesOf } from "../../app/shopify/app-toml-scopes.server.ts";
import { demoEnvironment, startDemo, type DemoProcess } from "../support/demo-process.ts";
import { axeViolations, documentScrollWidth, launchBrowser, openPage } from "../support/widget/browser.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SDKS_DOC = path.join(ROOT, "docs/sdks.md");
const SDK_README = path.join(ROOT, "packages/sdk/README.md");
const PHP_README = path.join(ROOT, "packages/sdk-php/README.md");
const PHP_EXAMPLE = path.join(ROOT, "packages/sdk-php/examples/headless-order.php");
const SCREENSHOTS = path.join(ROOT, "test-artifacts/integrator");
const REFERENCE = new RegExp(REFERENCE_NUMBER_PATTERN.source.replace(/^\^|\$$/g, ""));
const PROTECTED_LINE = new RegExp(`^protected (order-\\S+): (${REFERENCE.source})$`, "m");

/** The fenced block right after `<!-- integrator: name -->` (one such marker per file). */
export function integratorBlock(file: string, name: string): string {
  const text = fs.readFileSync(file, "utf8");
  const marker = `<!-- integrator: ${name} -->\n`;
  const at = text.indexOf(marker);
  assert.ok(at >= 0, `${path.relative(ROOT, file)} marks a block "${name}"`);
  assert.equal(text.indexOf(marker, at + 1), -1, `${path.relative(ROOT, file)} marks "${name}" once`);
  const block = /^```[a-z]*\n([\s\S]*?)^```$/m.exec(text.slice(at + marker.length));
  assert.ok(block && block.index === 0, `the marker "${name}" is followed by a fenced block`);
  return block[1]!;
}

/**
 * An integrator's shell: the machine's own Node first on PATH (this suite's Node 22 from .tools/ removed) and none
 * of the variables `npm run` and vitest set.
 */
function integratorEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PP_REPO: ROOT, ...settings };
  for (const name of Object.keys(env)) if (/^(npm_|VITEST|INIT_CWD$|NODE_OPTIONS$)/i.test(name)) delete env[name];
  env.PATH = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => !dir.includes(`${path.sep}.tools${path.sep}`) && !dir.endsWith(`node_modules${path.sep}.bin`))
    .join(path.delimiter);
  return env;
}

const exec = promisify(execFile);
/** Runs a README block with bash in `cwd`, stopping at the first failing command; its stdout. */
async function shell(block: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await exec("bash", ["-e", "-c", block], { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`README block failed in ${cwd}:\n${block}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
  }
}

/**
 * Packagist is not reachable here: a Composer home whose only packages are the PSR interfaces and nyholm/psr7 that
 * Debian installs under /usr/share/php (what `npm test` installs for the PHP SDK's suite), in place of Packagist's.
 */
function composerHomeWithoutPackagist(home: string): void {
  const debian = (name: string, version: string, dir: string, namespace: string, requires: Record<string, string>) => ({
    name,
    version,
    dist: { type: "path", url: `/usr/share/php/${dir}` },
    require: requires,
    autoload: { "psr-4": { [namespace]: "" } },
  });
  const message = { "psr/http-message": "^1.0 || ^2.0" };
  const packages = [
    debian("psr/http-message", "1.0.1", "Psr/Http/Message", "Psr\\Http\\Message\\", {}),
    debian("psr/http-factory", "1.0.1", "Psr/Http/Message", "Psr\\Http\\Message\\", message),
    debian("psr/http-client", "1.0.1", "Psr/Http/Client", "Psr\\Http\\Client\\", message),
    debian("nyholm/psr7", "1.5.1", "Nyholm/Psr7", "Nyholm\\Psr7\\", { ...message, "psr/http-factory": "^1.0" }),
  ];
  fs.mkdirSync(home, { recursive: true });
  const config = { repositories: [{ "packagist.org": false }, { type: "package", package: packages }] };
  fs.writeFileSync(path.join(home, "config.json"), JSON.stringify(config, null, 2));
}

// The two sections at the same time, and within the second every case but the last (which stops the demo) at once:
// each waits on processes of its own (npm, Composer, PHP, Chromium) and the demo answers them all.
describe.concurrent("the Shopify section from the system Node (Node 20 on Debian 12)", { timeout: 120_000 }, () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };

  it("`npm run shopify` runs the CLI under the bootstrap's Node 22 (the CLI 4 imports node:module's enableCompileCache: Node 22)", async () => {
    // CI=1: no self-upgrade or notifications fetch (offline).
    const { stdout } = await exec("npm", ["run", "-s", "shopify", "--", "version"], {
      cwd: ROOT,
      env: integratorEnv({ CI: "1", SHOPIFY_CLI_NO_ANALYTICS: "1" }),
    });
    // The CLI's answer is the last line: a first run's bootstrap may say what it installed before it.
    assert.match(stdout.trim().split("\n").at(-1)!, /^\d+\.\d+\.\d+$/);
  });

  it("every CLI script and `setup` (node scripts/migrate.ts: .ts needs Node 22) go through the bootstrap", () => {
    for (const name of ["dev", "config:link", "config:use", "generate", "deploy", "env", "shopify", "setup"]) {
      assert.match(manifest.scripts[name] ?? "", /^exec node scripts\/bootstrap\.mjs /, name);
    }
  });

  it(".nvmrc names the Node the bootstrap installs", () => {
    const bootstrap = fs.readFileSync(path.join(ROOT, "scripts/bootstrap.mjs"), "utf8");
    const version = /^const NODE_VERSION = "([\d.]+)";$/m.exec(bootstrap)?.[1];
    assert.equal(fs.readFileSync(path.join(ROOT, ".nvmrc"), "utf8").trim(), version);
  });
});

const AGAINST_THE_DEMO = { timeout: 400_000, concurrent: true };
describe("docs/sdks.md's integrator commands, as written, against npm run demo", AGAINST_THE_DEMO, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-integrator-"));
  let demo: DemoProcess;
  let browser: Browser | undefined;
  /** What the demo printed after its block: requests must not add to it. */
  let terminal = "";
  let api: { PROTECTION_API_BASE: string; PROTECTION_SECRET_KEY: string; PROTECTION_PROGRAM_ID: string };

  beforeAll(async () => {
    const demoDir = path.join(dir, "demo");
    fs.mkdirSync(demoDir);
    demo = await startDemo(demoEnvironment(demoDir));
    for (const stream of [demo.child.stdout!, demo.child.stderr!]) stream.on("data", (chunk) => (terminal += chunk));
    const printed = (pattern: RegExp) => {
      const value = pattern.exec(demo.output)?.[1];
      assert.ok(value, `the demo printed ${pattern}`);
      return value;
    };
    api = {
      PROTECTION_API_BASE: printed(/^Purchase Protection API \(demo, test mode\) on (\S+)$/m),
      PROTECTION_SECRET_KEY: printed(/^ +secret key +(mch_test_\S+)/m),
      PROTECTION_PROGRAM_ID: printed(/^ +program +(prog_\S+)/m),
    };
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    demo?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The plan the API holds for an order the example printed as protected: active unless refunded. */
  async function planOf(output: string) {
    const [, orderId, referenceNumber] = PROTECTED_LINE.exec(output) ?? [];
    assert.ok(orderId && referenceNumber, `printed "protected order-…: CLM-…":\n${output}`);
    const response = await fetch(`${api.PROTECTION_API_BASE}/purchases?limit=100`, {
      headers: { Authorization: `Bearer ${api.PROTECTION_SECRET_KEY}` },
    });
    assert.equal(response.status, 200);
    const { data } = (await response.json()) as {
      data: { orderId: string; referenceNumber: string; status: string }[];
    };
    const plan = data.find((purchase) => purchase.referenceNumber === referenceNumber);
    assert.ok(plan, `the API holds ${referenceNumber}`);
    assert.equal(plan.orderId, orderId);
    return plan;
  }

  it("the blocks run under the machine's own Node, not the bootstrap's", async () => {
    const { stdout } = await exec("node", ["-p", "process.execPath"], { env: integratorEnv({}) });
    assert.doesNotMatch(stdout, /[/\\]\.tools[/\\]/);
  });

  it("TypeScript: the tarball from the clone installs, and docs/sdks.md's example confirms a plan", async () => {
    const install = integratorBlock(SDKS_DOC, "sdk-typescript-install");
    assert.equal(
      integratorBlock(SDK_README, "sdk-typescript-install"),
      install,
      "packages/sdk/README.md says the same",
    );
    const project = path.join(dir, "ts-project");
    fs.mkdirSync(project);
    const env = integratorEnv(api);
    await shell(install, project, env);
    const manifest = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"));
    assert.match(manifest.dependencies["@purchase-protection/sdk"], /^file:purchase-protection-sdk-.+\.tgz$/);

    fs.writeFileSync(path.join(project, "protect-order.mts"), integratorBlock(SDKS_DOC, "sdk-typescript-example"));
    const output = await shell(integratorBlock(SDKS_DOC, "sdk-typescript-run"), project, env);
    assert.equal((await planOf(output)).status, "active");
  });

  describe("PHP: the Composer path repository on the clone, and the README's plain PHP example", () => {
    const project = path.join(dir, "php-project");
    const script = path.join(project, "protect-order.php");
    const example = () => integratorBlock(PHP_README, "sdk-php-example");

    beforeAll(async () => {
      const install = integratorBlock(PHP_README, "sdk-php-install");
      assert.equal(integratorBlock(SDKS_DOC, "sdk-php-install"), install, "docs/sdks.md says the same");
      const home = path.join(dir, "composer-home");
      composerHomeWithoutPackagist(home);
      fs.mkdirSync(project);
      // PHP here is Debian 12's 8.2: the README's variable for that case.
      await shell(install, project, integratorEnv({ COMPOSER_HOME: home, COMPOSER_IGNORE_PLATFORM_REQ: "php" }));
      fs.writeFileSync(script, example());
    }, 120_000);

    // After npm's own "> purchase-protection@… php" lines, under `npm run php`.
    const expected = /(?:^|\n)protected (order-[0-9a-f]{8}): (\S+)\nrefund reported: merchant_refunded\n\2 voided\n$/;

    it("runs as written under the clone's `npm run php`", async () => {
      const output = await shell(integratorBlock(SDKS_DOC, "sdk-php-run"), project, integratorEnv(api));
      assert.match(output, expected);
      assert.equal((await planOf(output)).status, "voided");
    });

    it("runs on Composer's autoloader alone (nothing prepended, nothing on the include path)", async () => {
      let output = "";
      const code = await runPhp([script], {
        env: api,
        cwd: project,
        ini: { auto_prepend_file: "", include_path: "." },
        stdout: (chunk) => (output += Buffer.from(chunk).toString()),
      });
      assert.equal(code, 0, output);
      assert.match(output, expected);
    });

    it("runs without Composer on the SDK's autoload.php, as the example's first line says", async () => {
      const [opening, requireLine, ...rest] = example().split("\n");
      const clone = /without Composer: (require 'path\/to\/clone\/(packages\/sdk-php\/autoload\.php)';)/.exec(
        requireLine!,
      );
      assert.ok(clone, requireLine);
      const withoutComposer = path.join(project, "protect-order-without-composer.php");
      const line = `require '${path.join(ROOT, clone[2]!)}';`;
      fs.writeFileSync(withoutComposer, [opening, line, ...rest].join("\n"));
      let output = "";
      const code = await runPhp([withoutComposer], {
        env: api,
        cwd: project,
        ini: { auto_prepend_file: "", include_path: ".:/usr/share/php" },
        stdout: (chunk) => (output += Buffer.from(chunk).toString()),
      });
      assert.equal(code, 0, output);
      assert.match(output, expected);
    });

    it("the repository's example is the README's, with the SDK's own autoloader", () => {
      const body = (source: string) => source.slice(source.indexOf("\nuse "));
      assert.equal(body(fs.readFileSync(PHP_EXAMPLE, "utf8")), body(example()));
    });
  });

  it("/app (Shopify not configured) suggests the 11 SCOPES of shopify.app.toml and links the demo's pages", async () => {
    const toml = fs.readFileSync(path.join(ROOT, "shopify.app.toml"), "utf8");
    const scopes = (parse(toml) as { access_scopes: { scopes: string } }).access_scopes.scopes;
    assert.deepEqual(accessScopesOf(toml), scopes.split(","));
    browser = await launchBrowser();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    for (const viewport of [
      { width: 390, height: 844 },
      { width: 1280, height: 900 },
    ]) {
      const tab = await openPage(browser);
      await tab.page.setViewportSize(viewport);
      await tab.page.goto(`${demo.origin}/app`);
      const text = await tab.page.innerText("body");
      assert.ok(text.includes(`SCOPES=${scopes}`), text);
      assert.match(text, new RegExp(`the ${scopes.split(",").length} scopes of shopify\\.app\\.toml`));
      const links = await tab.page.$$eval("a", (anchors) =>
        anchors.map((anchor) => [anchor.textContent, anchor.getAttribute("href")]),
      );
      for (const href of ["/demo", "/portal", "/dashboard", "/ops"]) {
        assert.ok(
          links.some(([, target]) => target === href),
          `links ${href}: ${JSON.stringify(links)}`,
        );
      }
      assert.deepEqual(await axeViolations(tab), [], "axe-core");
      assert.ok((await documentScrollWidth(tab)) <= viewport.width, "no sideways scroll");
      await tab.page.screenshot({
        path: path.join(SCREENSHOTS, `app-not-configured-${viewport.width}.png`),
        fullPage: true,
      });
      await tab.close();
    }
    for (const href of ["/demo", "/portal", "/dashboard", "/ops"]) {
      const response = await fetch(`${demo.origin}${href}`, { redirect: "manual" });
      assert.ok(response.status < 400, `${href} answers ${response.status}`);
    }
  });

  it.sequential(
    "the terminal stays readable: the favicon is served, an unknown address is a 404 that logs nothing",
    async () => {
      const favicon = await fetch(`${demo.origin}/favicon.ico`);
      assert.equal(favicon.status, 200);
      assert.equal(favicon.headers.get("content-type"), "image/x-icon");
      assert.deepEqual([...new Uint8Array(await favicon.arrayBuffer()).subarray(0, 4)], [0, 0, 1, 0], "an ICO file");
      for (const address of ["/apple-touch-icon.png", "/portal/favicon.ico", "/no/such/page", "/wp-login.php"]) {
        const response = await fetch(`${demo.origin}${address}`, {
          headers: { Accept: "image/avif,image/webp,image/*,*/*;q=0.8" },
        });
        assert.equal(response.status, 404, address);
        await response.arrayBuffer();
      }
      // Everything the process wrote is in once it has exited.
      const exited = new Promise((resolve) => demo.child.once("exit", resolve));
      demo.stop();
      await exited;
      assert.doesNotMatch(terminal, /^\s+at \S|Error|favicon/m, terminal);
    },
  );
});
