// The build: one minified script within theme-check's 10,000-byte app-block limit, its SRI hash beside it, and a
// build that fails when the limit is exceeded. Also the serving headers of /widget/v1/*.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildWidget, integrityOf, MAX_BYTES, TARGET_BYTES } from "../build.ts";
import { widgetAssetResponse, widgetVersionOf } from "../../../server/widget-assets.ts";

describe("widget build", () => {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-widget-"));

  it("is one minified script of at most 10,000 bytes, with its sha384 SRI hash published beside it", async () => {
    const result = await buildWidget({ outDir });
    const code = fs.readFileSync(path.join(outDir, "service-widget.js"));
    assert.equal(code.byteLength, result.bytes);
    assert.ok(result.bytes <= MAX_BYTES, `${result.bytes} bytes`);
    assert.ok(result.bytes <= TARGET_BYTES, `aim: at most ${TARGET_BYTES} bytes, is ${result.bytes}`);
    assert.equal(fs.readFileSync(path.join(outDir, "service-widget.js.sri"), "utf8").trim(), integrityOf(code));
    assert.match(result.integrity, /^sha384-[A-Za-z0-9+/]{64}$/);
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(outDir, "manifest.json"), "utf8")), {
      file: "service-widget.js",
      versionedFile: `service-widget.${widgetVersionOf(code)}.js`,
      ...result,
    });
    assert.equal(code.toString("utf8").split("\n").filter(Boolean).length, 1, "minified to one line");
    assert.ok(
      !/sourceMappingURL|import\s|export\s/.test(code.toString("utf8")),
      "a classic script, no modules or source maps",
    );
  });

  it("builds the iframe fallback's frame page script apart: frame.js, within the same limit", async () => {
    await buildWidget({ outDir });
    const frame = fs.readFileSync(path.join(outDir, "frame.js"));
    assert.ok(frame.byteLength <= MAX_BYTES, `${frame.byteLength} bytes`);
    assert.ok(
      !fs.readFileSync(path.join(outDir, "service-widget.js"), "utf8").includes("data-frame"),
      "the page's script no longer carries the frame side",
    );
  });

  it("fails above the limit", async () => {
    await assert.rejects(buildWidget({ outDir, maxBytes: 1_000 }), /over the 1000-byte limit/);
  });

  it("is served fresh at its stable URL (5 min + ETag) and immutable at its versioned URL, CORS for SRI, and the frame page with its own CSP", async () => {
    await buildWidget({ outDir });
    const script = widgetAssetResponse(new Request("http://shop.test/widget/v1/service-widget.js"), outDir)!;
    assert.equal(script.status, 200);
    assert.equal(
      script.headers.get("cache-control"),
      "public, max-age=300, stale-while-revalidate=86400",
      "a deploy reaches pages within minutes",
    );
    const etag = script.headers.get("etag")!;
    const revalidated = widgetAssetResponse(
      new Request("http://shop.test/widget/v1/service-widget.js", { headers: { "If-None-Match": etag } }),
      outDir,
    )!;
    assert.equal(revalidated.status, 304);
    const { versionedFile } = JSON.parse(fs.readFileSync(path.join(outDir, "manifest.json"), "utf8"));
    assert.equal(versionedFile, `service-widget.${etag.replaceAll('"', "")}.js`);
    const pinned = widgetAssetResponse(new Request(`http://shop.test/widget/v1/${versionedFile}`), outDir)!;
    assert.equal(pinned.status, 200);
    assert.equal(pinned.headers.get("cache-control"), "public, max-age=31536000, immutable");
    assert.deepEqual(
      new Uint8Array(await pinned.arrayBuffer()),
      new Uint8Array(fs.readFileSync(path.join(outDir, "service-widget.js"))),
    );
    const other = widgetAssetResponse(
      new Request("http://shop.test/widget/v1/service-widget.0123456789abcdef.js"),
      outDir,
    )!;
    assert.equal(other.status, 404, "another build's version is not served as this one");
    assert.equal(script.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(script.headers.get("access-control-allow-origin"), "*");
    assert.equal(
      integrityOf(new Uint8Array(await script.arrayBuffer())),
      fs.readFileSync(path.join(outDir, "service-widget.js.sri"), "utf8").trim(),
    );
    const sri = widgetAssetResponse(new Request("http://shop.test/widget/v1/service-widget.js.sri"), outDir)!;
    assert.match(await sri.text(), /^sha384-/);
    const frame = widgetAssetResponse(new Request("http://shop.test/widget/v1/frame.html"), outDir)!;
    assert.match(await frame.text(), /<script src="frame\.js"><\/script>/);
    assert.match(frame.headers.get("content-security-policy")!, /script-src 'self'/);
    const frameScript = widgetAssetResponse(new Request("http://shop.test/widget/v1/frame.js"), outDir)!;
    assert.equal(frameScript.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.deepEqual(
      new Uint8Array(await frameScript.arrayBuffer()),
      new Uint8Array(fs.readFileSync(path.join(outDir, "frame.js"))),
    );
    assert.equal(widgetAssetResponse(new Request("http://shop.test/api/v1/offers/quote"), outDir), undefined);
    assert.equal(
      widgetAssetResponse(new Request("http://shop.test/widget/v1/service-widget.js", { method: "POST" }), outDir)!
        .status,
      405,
    );
    assert.equal(
      widgetAssetResponse(new Request("http://shop.test/widget/v1/service-widget.js"), path.join(outDir, "missing"))!
        .status,
      404,
    );
  });
});
