// Bundles the post-purchase extension the way the Shopify CLI does (esbuild, minified, Preact included) to measure
// it: Shopify refuses a compiled UI extension over 64 KB. The CLI makes one bundle of both targets' modules, so the
// size checked is that of one bundle importing both; the tests render each target from a bundle of its own module.
// `node build.ts` prints the size and fails above MAX_BYTES.
import { build, type BuildOptions } from "esbuild";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const MAX_BYTES = 64 * 1024;
export const TARGET_BYTES = 20 * 1024;

export const TARGETS = {
  "purchase.thank-you.block.render": "ThankYou.tsx",
  "customer-account.order-status.block.render": "OrderStatus.tsx",
} as const;
export type Target = keyof typeof TARGETS;

const SRC = path.join(import.meta.dirname, "src");
const OPTIONS: BuildOptions = {
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  jsx: "automatic",
  jsxImportSource: "preact",
  legalComments: "none",
  write: false,
  logLevel: "silent",
};

/** One target's minified ES module (its default export is the target's entry), in memory. */
export async function bundle(target: Target): Promise<Uint8Array> {
  const result = await build({ ...OPTIONS, entryPoints: [path.join(SRC, TARGETS[target])] });
  return result.outputFiles![0].contents;
}

/** Both targets in one module, as the extension ships: what the size limit applies to. */
export async function bundleAll(): Promise<Uint8Array> {
  const entries = Object.values(TARGETS);
  const result = await build({
    ...OPTIONS,
    stdin: {
      contents: [
        ...entries.map((file, index) => `import target${index} from "./${file}";`),
        `export default [${entries.map((_, index) => `target${index}`).join(", ")}];`,
      ].join("\n"),
      resolveDir: SRC,
      loader: "ts",
    },
  });
  return result.outputFiles![0].contents;
}

if (import.meta.main) {
  const code = await bundleAll();
  const note = code.byteLength > TARGET_BYTES ? ` (over the ${TARGET_BYTES}-byte aim)` : "";
  console.log(`post-purchase: ${code.byteLength} bytes${note}, ${gzipSync(code, { level: 9 }).byteLength} gzipped`);
  if (code.byteLength > MAX_BYTES) {
    console.error(`✖ over Shopify's ${MAX_BYTES}-byte limit for a UI extension`);
    process.exit(1);
  }
}
