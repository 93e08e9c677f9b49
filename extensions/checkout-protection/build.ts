// Bundles the checkout extension the way the Shopify CLI does (esbuild, minified, Preact included) to measure it:
// Shopify refuses a compiled UI extension over 64 KB. The CLI builds the deployed bundle itself; this one feeds the
// size check and the unit tests. `node build.ts` prints the size and fails above MAX_BYTES.
import { build } from "esbuild";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const MAX_BYTES = 64 * 1024;
export const TARGET_BYTES = 20 * 1024;

/** The minified ES module (its default export is the extension's entry), in memory. */
export async function bundle(): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [path.join(import.meta.dirname, "src", "Checkout.tsx")],
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2020",
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "none",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].contents;
}

if (import.meta.main) {
  const code = await bundle();
  const note = code.byteLength > TARGET_BYTES ? ` (over the ${TARGET_BYTES}-byte aim)` : "";
  console.log(
    `checkout-protection: ${code.byteLength} bytes${note}, ${gzipSync(code, { level: 9 }).byteLength} gzipped`,
  );
  if (code.byteLength > MAX_BYTES) {
    console.error(`✖ over Shopify's ${MAX_BYTES}-byte limit for a UI extension`);
    process.exit(1);
  }
}
