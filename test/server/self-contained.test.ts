// The repository explains itself: no source file cites the contract's sections or the design notes, which live
// outside it. A rule is cited by the doc section that states it (docs/api.md "Rate limits"); the docs themselves state
// their rules instead of pointing at the contract's sections.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

// Written with \u escapes so that this file does not cite what it forbids. A section sign after "RFC <number>" is allowed.
const OUTSIDE_CITATIONS = [/spec \u00a7/i, /design\.md/i, /design \u00a7/i, /(?<!RFC \d+ )\u00a7\s?\d/];

/** Lines of `text` that cite a document outside the repository, as "line: text". */
function outsideCitations(text: string): string[] {
  return text
    .split("\n")
    .flatMap((line, index) =>
      OUTSIDE_CITATIONS.some((pattern) => pattern.test(line)) ? [`${index + 1}: ${line.trim()}`] : [],
    );
}

/** Tracked files and new ones not ignored, so a citation is caught before it is committed. */
function sourceFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return listed.split("\0").filter((file) => file !== "" && fs.existsSync(path.join(ROOT, file)));
}

describe("self-contained references", () => {
  it("recognises a citation of the contract or the design notes, not an RFC section", () => {
    assert.equal(outsideCitations("// Rate limits (spec \u00a78 rule 1).").length, 1);
    assert.equal(
      outsideCitations("// (DESIGN\u002emd, Events)\n// (DESIGN \u00a74)\n// bucket (\u00a78 rule 1)").length,
      3,
    );
    assert.deepEqual(outsideCitations('// docs/api.md "Rate limits"\n"RFC 8785 \u00a73.2.2: whitespace removed"'), []);
  });

  it("no source file cites them", () => {
    const files = sourceFiles();
    assert.ok(files.includes("server/http/routes.ts"), "the file list comes from git");
    const found = files.flatMap((file) => {
      const content = fs.readFileSync(path.join(ROOT, file));
      if (content.includes(0)) return []; // binary
      return outsideCitations(content.toString("utf8")).map((line) => `${file}:${line}`);
    });
    assert.deepEqual(found, []);
  });
});
