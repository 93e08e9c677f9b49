// Builds src/ into ONE minified script, dist/service-widget.js, and publishes its SRI hash beside it
// (dist/service-widget.js.sri and dist/manifest.json). Fails above MAX_BYTES: theme-check's limit for app-block
// JavaScript (AssetSizeAppBlockJavaScript) is 10,000 bytes. Also dist/frame.js, the script of the iframe fallback's
// hosted frame page (served by the app only, never by a theme), held to the same limit. `node build.ts` (`npm run build:widget` at the root) also
// copies the script into the theme app embed's assets, where a test holds it equal to a fresh build.
import { build } from "esbuild";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { widgetVersionOf } from "../../server/widget-assets.ts";

export const MAX_BYTES = 10_000;
// The aim the build test holds: 20 bytes under the limit. The languages, Markets prices and the merchant-paid notice
// spent the old 100-byte margin (issue 33); the next feature first moves bytes out (e.g. more sentences into the
// quote's offerTexts), it does not raise this.
export const TARGET_BYTES = 9_980;
export const DIST = path.join(import.meta.dirname, "dist");
export const SCRIPT = path.join(DIST, "service-widget.js");
const ENTRIES = { script: "index.ts", frame: "frame-entry.ts" };
/** The committed copy the theme app embed serves (Shopify hosts extension assets itself). */
export const EMBED_ASSET = path.join(
  import.meta.dirname,
  "..",
  "..",
  "extensions",
  "theme-embed",
  "assets",
  "service-widget.js",
);

/** Properties of the widget's internal objects (config, view, cart, mount): renamed by the minifier. */
const INTERNAL_PROPS =
  /^(box|busy|done|onDecline|chosen|choose|update|stop|idle|settle|key|program|amountCents|orderRef|orderName|apiBase|price|canDecline|terms|token|texts|cartId)$/;

export interface BuildResult {
  bytes: number;
  gzipBytes: number;
  integrity: string;
}

/** The minified bundle (service-widget.js, or the frame page's frame.js), in memory. */
export async function bundle(entry: keyof typeof ENTRIES = "script"): Promise<Uint8Array> {
  const result = await build({
    entryPoints: [path.join(import.meta.dirname, "src", ENTRIES[entry])],
    bundle: true,
    minify: true,
    format: "iife",
    // Chrome 91, not 80: esbuild rewrites every `?.` for Chrome < 91 (a V8 bug), which the size budget cannot afford.
    target: ["es2020", "chrome91", "safari14", "firefox78"],
    legalComments: "none",
    // The widget's own property names (never an API field, event detail key, DOM or public name) shrink to a letter.
    mangleProps: INTERNAL_PROPS,
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0].contents;
}

export const integrityOf = (code: Uint8Array) => `sha384-${createHash("sha384").update(code).digest("base64")}`;

/** Writes dist/ atomically (temp file + rename), so concurrent readers never see half a file. */
export async function buildWidget(options: { maxBytes?: number; outDir?: string } = {}): Promise<BuildResult> {
  const { maxBytes = MAX_BYTES, outDir = DIST } = options;
  const [code, frame] = await Promise.all([bundle(), bundle("frame")]);
  for (const [name, bytes] of [
    ["service-widget.js", code.byteLength],
    ["frame.js", frame.byteLength],
  ] as const) {
    if (bytes > maxBytes)
      throw new Error(
        `${name} is ${bytes} bytes, over the ${maxBytes}-byte limit (theme-check AssetSizeAppBlockJavaScript)`,
      );
  }
  const result = {
    bytes: code.byteLength,
    gzipBytes: gzipSync(code, { level: 9 }).byteLength,
    integrity: integrityOf(code),
  };
  fs.mkdirSync(outDir, { recursive: true });
  const write = (name: string, data: string | Uint8Array) => {
    const temporary = path.join(outDir, `.${name}.${process.pid}.tmp`);
    fs.writeFileSync(temporary, data);
    fs.renameSync(temporary, path.join(outDir, name));
  };
  write("service-widget.js", code);
  write("frame.js", frame);
  write("service-widget.js.sri", `${result.integrity}\n`);
  write(
    "manifest.json",
    `${JSON.stringify({ file: "service-widget.js", versionedFile: `service-widget.${widgetVersionOf(code)}.js`, ...result }, null, 2)}\n`,
  );
  return result;
}

if (import.meta.main) {
  try {
    const result = await buildWidget();
    fs.copyFileSync(SCRIPT, EMBED_ASSET);
    const note = result.bytes > TARGET_BYTES ? ` (over the ${TARGET_BYTES}-byte aim)` : "";
    console.log(
      `dist/service-widget.js: ${result.bytes} bytes${note}, ${result.gzipBytes} gzipped, ${result.integrity}; copied to ${path.relative(process.cwd(), EMBED_ASSET)}`,
    );
  } catch (error) {
    console.error(`✖ ${(error as Error).message}`);
    process.exit(1);
  }
}
