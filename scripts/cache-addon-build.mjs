// node scripts/cache-addon-build.mjs <package>=<binary>…: keeps a native addon that this machine compiled (node-gyp,
// after prebuild-install found no prebuilt binary to download) in npm's cache as that download, named as
// prebuild-install names it: the next install here (another clone, test/setup/fresh-clone.test.ts) unpacks it in a
// second instead of compiling for two CPU-minutes. scripts/bootstrap.mjs runs it under the Node the addon was built
// for, once the addon loaded there; npm_config_cache names npm's cache, as it does for an install script.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";

// The packages are CommonJS and found from the repository's node_modules, as their own install script finds them.
const load = createRequire(path.join(process.cwd(), "package.json"));

async function keep(name, binary) {
  const packageDir = path.dirname(load.resolve(`${name}/package.json`));
  const pkg = load(path.join(packageDir, "package.json"));
  // prebuild-install's own naming (its rc: runtime, ABI, platform, libc, arch), so its cache look-up finds the file.
  const prebuildDir = path.dirname(load.resolve("prebuild-install/package.json", { paths: [packageDir] }));
  const util = load(path.join(prebuildDir, "util.js"));
  const options = { ...load(path.join(prebuildDir, "rc.js"))(pkg), pkg };
  const cached = util.cachedPrebuild(util.getDownloadUrl(options));
  if (fs.existsSync(cached)) return;
  const tar = load(load.resolve("tar-fs", { paths: [prebuildDir] }));
  fs.mkdirSync(path.dirname(cached), { recursive: true });
  // Written aside and renamed: a concurrent install never unpacks half a file.
  const partial = `${cached}.${process.pid}.tmp`;
  try {
    await pipeline(tar.pack(packageDir, { entries: [binary] }), zlib.createGzip(), fs.createWriteStream(partial));
    fs.renameSync(partial, cached);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  console.error(`bootstrap: ${name}'s build kept for the next install on this machine: ${cached}`);
}

try {
  for (const argument of process.argv.slice(2)) {
    const [name, binary] = argument.split("=");
    await keep(name, binary);
  }
} catch (error) {
  console.error(`bootstrap: could not keep a native addon's build (the next install compiles it): ${error.message}`);
  process.exit(1);
}
