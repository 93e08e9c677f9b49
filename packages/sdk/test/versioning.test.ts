// The semantic-versioning covenant (docs/api.md "Versioning", CHANGELOG.md). public-surface.txt is the released public
// surface. A symbol may leave it only after a deprecation: marked `@deprecated Since <date>; works until <date + 90
// days>. Use …`, warned about once per process (src/deprecation.ts), listed in CHANGELOG.md — and removed in a new
// major version once that date has passed. Adding a symbol is a minor version. When the change is intended, rewrite
// the file with `PP_WRITE_SURFACE=1 npx vitest run packages/sdk/test/versioning.test.ts` (it refuses to drop a symbol
// whose deprecation has not run out) and say what changed in CHANGELOG.md.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { SDK_VERSION } from "../src/index.ts";
import { DEPRECATION_OVERLAP_DAYS, worksUntil } from "../src/deprecation.ts";
import { compareSurfaces, currentSurface } from "./public-surface.ts";

const PACKAGE = path.resolve(import.meta.dirname, "..");
const SNAPSHOT = path.join(import.meta.dirname, "public-surface.txt");
const HOW_TO = "see the comment at the top of packages/sdk/test/versioning.test.ts";
const today = () => new Date().toISOString().slice(0, 10);
const readLines = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter(Boolean);

describe("the public surface", { timeout: 30_000 }, () => {
  it("matches the released snapshot: nothing removed without a deprecation, nothing added unrecorded", () => {
    const current = currentSurface();
    const released = readLines(SNAPSHOT);
    const changes = compareSurfaces(released, current, today());
    assert.deepEqual(
      changes.removedWithoutDeprecation,
      [],
      `public symbols gone without a deprecation that has run out. Restore them and deprecate them first (they keep ` +
        `working ${DEPRECATION_OVERLAP_DAYS} days); ${HOW_TO}`,
    );
    if (process.env.PP_WRITE_SURFACE === "1") fs.writeFileSync(SNAPSHOT, `${current.join("\n")}\n`);
    else {
      assert.deepEqual(changes.removedAfterSunset, [], `deprecated symbols removed: a major version; ${HOW_TO}`);
      assert.deepEqual(
        changes.changed,
        [],
        `changed signatures: only added optional parameters or fields keep the covenant (a minor version); ${HOW_TO}`,
      );
      assert.deepEqual(changes.added, [], `new public symbols: a minor version; ${HOW_TO}`);
    }
  });

  it("every deprecation names the date until which it keeps working, at least 90 days on", () => {
    for (const line of currentSurface().filter((l) => l.includes(" @deprecated "))) {
      const [, since, until] = line.match(/ @deprecated since (\S+) until (\S+)$/)!;
      assert.match(
        `${since} ${until}`,
        /^\d{4}-\d{2}-\d{2} \d{4}-\d{2}-\d{2}$/,
        `${line}: write "Since <date>; works until <date>"`,
      );
      assert.ok(until! >= worksUntil(since!), `${line}: works until at least ${worksUntil(since!)}`);
    }
  });
});

describe("the surface comparison", () => {
  const released = [
    "Client.kept(a: string): void",
    "Client.renamed(a: string): void",
    "Client.old(): void @deprecated since 2025-11-01 until 2026-01-31",
    "Client.recent(): void @deprecated since 2098-11-01 until 2099-01-31",
  ];

  it("tells an undeprecated or still-overlapping removal from one after the sunset", () => {
    const changes = compareSurfaces(released, ["Client.kept(a: string, b?: number): void"], "2026-11-25");
    assert.deepEqual(changes.removedWithoutDeprecation, [
      "Client.renamed(a: string): void",
      "Client.recent(): void @deprecated since 2098-11-01 until 2099-01-31",
    ]);
    assert.deepEqual(changes.removedAfterSunset, ["Client.old(): void @deprecated since 2025-11-01 until 2026-01-31"]);
    assert.deepEqual(changes.changed, ["Client.kept"]);
  });

  it("sees added symbols and newly deprecated ones", () => {
    const current = [...released, "Client.added(): void"].map((line) =>
      line.startsWith("Client.kept") ? `${line} @deprecated since 2026-11-25 until 2027-02-23` : line,
    );
    const changes = compareSurfaces(released, current, "2026-11-25");
    assert.deepEqual(changes.added, ["Client.added(): void"]);
    assert.deepEqual(changes.changed, ["Client.kept"]);
    assert.deepEqual(changes.removedWithoutDeprecation, []);
  });
});

describe("the version", () => {
  it("is one semver version in package.json, SDK_VERSION and the latest CHANGELOG.md entry", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE, "package.json"), "utf8")) as { version: string };
    assert.match(manifest.version, /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
    assert.equal(SDK_VERSION, manifest.version);
    const latest = fs.readFileSync(path.join(PACKAGE, "CHANGELOG.md"), "utf8").match(/^## (\S+)/m)?.[1];
    assert.equal(latest, manifest.version, "CHANGELOG.md's first entry is the package version");
  });

  it("a deprecation keeps working 90 days after its release", () => {
    assert.equal(worksUntil("2026-11-25"), "2027-02-23");
    assert.equal(worksUntil("2027-01-01"), "2027-04-01");
    assert.throws(() => worksUntil("25/11/2026"), /YYYY-MM-DD/);
  });
});
