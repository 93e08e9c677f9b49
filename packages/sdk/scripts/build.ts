// Builds dist/: ESM (dist/esm) and CommonJS (dist/cjs) bundles of src/ with esbuild, and the .d.ts files with tsc
// (copied into dist/cjs, whose package.json marks it CommonJS so TypeScript reads them as CJS types).
// Run with `npm run build -w @purchase-protection/sdk`.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

const root = path.resolve(import.meta.dirname, "..");
const dist = path.join(root, "dist");
fs.rmSync(dist, { recursive: true, force: true });

const common = {
  entryPoints: [path.join(root, "src/index.ts")],
  bundle: true,
  platform: "neutral" as const,
  target: "es2022",
  external: ["canonicalize"],
  sourcemap: true,
  logLevel: "warning" as const,
};
await build({ ...common, format: "esm", outfile: path.join(dist, "esm/index.js") });
await build({ ...common, format: "cjs", outfile: path.join(dist, "cjs/index.js") });
fs.writeFileSync(path.join(dist, "cjs/package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.build.json")], { stdio: "inherit" });
for (const file of fs.readdirSync(path.join(dist, "esm"), { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".d.ts")) continue;
  // tsc keeps the sources' `.ts` specifiers in declarations; the published files are `.js`.
  const source = path.join(dist, "esm", file);
  const text = fs.readFileSync(source, "utf8").replace(/(from\s+["']\.{1,2}\/[^"']+)\.ts(["'])/g, "$1.js$2");
  fs.writeFileSync(source, text);
  fs.mkdirSync(path.dirname(path.join(dist, "cjs", file)), { recursive: true });
  fs.writeFileSync(path.join(dist, "cjs", file), text);
}
console.log(`built ${path.relative(process.cwd(), dist) || "dist"}: esm, cjs, .d.ts`);
