// The docs hold together (issue 29): every relative link in README.md, docs/**/*.md and the packages' READMEs reaches
// a file that exists and, with a #fragment, a heading of it (GitHub's anchors); and every source reference to a doc
// section names a section that exists there. The one reference syntax is <doc> "<section>", where <doc> is README
// (README.md) or a repository path ending in .md, and <section> a heading of that doc (inline code, emphasis and link
// markup left out) or a bold or italic label that opens one of its paragraphs (**Money invariants**, *Delivery
// rules.*): docs/api.md "Rate limits", packages/widget/README.md "Cart mode on a Shopify storefront". A reference to a
// section that moved out of the README fails, and so do the older spellings (README: X, README, *X*, README 'X').
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SOURCE_DIRS = ["server", "app", "packages", "scripts", "test", "bench", "extensions", "prisma", ".ci", "docs"];
const Q = "\u0022"; // a double quote: this file's own examples must not read as references

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return plainHeading(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** A heading's text as it reads: link targets, inline code and emphasis markers left out. */
function plainHeading(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[`*]/g, "")
    .trim();
}

/** The lines of a Markdown text outside fenced code blocks (others blanked, so line numbers hold). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

interface Doc {
  headings: string[];
  anchors: Set<string>;
  labels: Set<string>;
}

const docs = new Map<string, Doc | null>();
/** A doc's headings, anchors (duplicates numbered as GitHub does) and paragraph labels; null when it does not exist. */
function docAt(file: string): Doc | null {
  if (!docs.has(file)) {
    const full = path.join(ROOT, file);
    if (!fs.existsSync(full) || !fs.statSync(full).isFile()) docs.set(file, null);
    else docs.set(file, parseDoc(fs.readFileSync(full, "utf8")));
  }
  return docs.get(file)!;
}

export function parseDoc(text: string): Doc {
  const lines = proseLines(text);
  const headings = lines.flatMap((line) => /^#{1,6} +(.+?) *#*$/.exec(line)?.[1] ?? []);
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const heading of headings) {
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  const labels = new Set<string>();
  for (const line of lines) {
    const label = /^\s*(?:[-*] |\| )?(\*\*?)([^*]+?)\1/.exec(line)?.[2];
    if (label) labels.add(label.replace(/[.:]$/, "").trim());
  }
  return { headings: headings.map(plainHeading), anchors, labels };
}

/** Tracked files and new ones not ignored, so a broken reference is caught before it is committed. */
function repositoryFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return listed.split("\0").filter((file) => file !== "" && fs.existsSync(path.join(ROOT, file)));
}

function markdownDocs(files: string[]): string[] {
  return files.filter(
    (file) => file === "README.md" || /^docs\/.+\.md$/.test(file) || /^packages\/[^/]+\/README\.md$/.test(file),
  );
}

/** The relative links of a Markdown doc that lead nowhere, as "doc:line: target (why)". */
export function brokenLinks(file: string, text: string): string[] {
  const problems: string[] = [];
  proseLines(text).forEach((line, index) => {
    const prose = line.replace(/`[^`]*`/g, "code");
    for (const match of prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
      const [pathPart, fragment] = target.split("#", 2) as [string, string | undefined];
      const linked = pathPart === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
      const where = `${file}:${index + 1}: ${target}`;
      if (linked.startsWith("..") || !fs.existsSync(path.join(ROOT, linked))) {
        problems.push(`${where} (no such file)`);
        continue;
      }
      if (fragment === undefined) continue;
      const doc = linked.endsWith(".md") ? docAt(linked) : null;
      if (!doc) problems.push(`${where} (an anchor into a file that is not Markdown)`);
      else if (!doc.anchors.has(fragment)) problems.push(`${where} (no heading with that anchor)`);
    }
  });
  return problems;
}

// <doc> "<section>": a doc name, then a quoted section, maybe on the comment's next line; quotes may be escaped (\").
const REFERENCE = new RegExp(
  String.raw`(?<![\w./-])(README|(?:[\w.-]+/)*[\w.-]+\.md)(?:[ \t]+|[ \t]*\n[ \t]*(?://|\*|#)?[ \t]*)\\?${Q}([^${Q}\\\n]+)\\?${Q}`,
  "g",
);
// The spellings before issue 29: README: X, README: "X", README, "X", README, *X*, README 'X'.
const OLD_SPELLING = /(?<![\w./-])README(?:[:,] *["'*]|: [A-Z]| ')/g;

/** A file's references to doc sections that do not exist (or use an old spelling), as "file:line: why". */
export function brokenReferences(file: string, text: string): string[] {
  const lineOf = (offset: number) => text.slice(0, offset).split("\n").length;
  const problems: string[] = [];
  for (const match of text.matchAll(REFERENCE)) {
    const docFile = match[1] === "README" ? "README.md" : match[1]!;
    const section = match[2]!.replace(/\s+/g, " ");
    const where = `${file}:${lineOf(match.index)}: ${match[1]} ${Q}${section}${Q}`;
    const doc = docAt(docFile);
    if (!doc) problems.push(`${where} (no such doc)`);
    else if (!doc.headings.includes(section) && !doc.labels.has(section)) {
      problems.push(`${where} (no such section in ${docFile})`);
    }
  }
  for (const match of text.matchAll(OLD_SPELLING)) {
    problems.push(`${file}:${lineOf(match.index)}: an old spelling; write <doc> ${Q}<section>${Q}`);
  }
  return problems;
}

describe("doc links and section references", () => {
  it("spells anchors as GitHub does", () => {
    assert.equal(slug("Dashboard (`/dashboard`)"), "dashboard-dashboard");
    assert.equal(slug("The claims team's console (`/ops`)"), "the-claims-teams-console-ops");
    assert.equal(slug("Orders: merchant refund report"), "orders-merchant-refund-report");
    assert.equal(slug("E-mail to buyers"), "e-mail-to-buyers");
    assert.deepEqual(
      [...parseDoc("# A\n## Same\n```\n# not a heading\n```\n## Same\n").anchors],
      ["a", "same", "same-1"],
    );
  });

  it("finds a broken link, a missing anchor and a reference to a section that is not there", () => {
    assert.deepEqual(
      brokenLinks("docs/x.md", "[ok](api.md#rate-limits) [ok](../README.md) [web](https://example.com)"),
      [],
    );
    assert.equal(brokenLinks("docs/x.md", "[gone](nowhere.md)").length, 1);
    assert.equal(brokenLinks("docs/x.md", "[gone](api.md#no-such-heading)").length, 1);
    assert.equal(brokenLinks("docs/x.md", "`[in code](nowhere.md)`").length, 0);
    const ok = `// docs/api.md ${Q}Rate limits${Q}; docs/api.md ${Q}Money invariants${Q} (a label)\n * docs/api.md\n * ${Q}Offers${Q}`;
    assert.deepEqual(brokenReferences("x.ts", ok), []);
    // A section that moved out of the README, one that does not exist, a doc that does not exist, old spellings.
    assert.equal(brokenReferences("x.ts", `// README ${Q}Rate limits${Q}`).length, 1);
    assert.equal(brokenReferences("x.ts", `// docs/api.md ${Q}Rate limit${Q}`).length, 1);
    assert.equal(brokenReferences("x.ts", `// docs/nope.md ${Q}Rate limits${Q}`).length, 1);
    assert.equal(
      brokenReferences("x.ts", `"(README: Settlement)" // README, *Offers* // README 'Rate limits'`).length,
      3,
    );
    assert.deepEqual(brokenReferences("x.ts", `// README ${Q}Quick start${Q}, the README's table`), []);
    assert.deepEqual(
      brokenReferences("x.ts", `read(${Q}CHANGELOG.md${Q}, ${Q}utf8${Q})`),
      [],
      "a file name in a string",
    );
  });

  const files = repositoryFiles();

  it("every relative link in the README, docs/ and the packages' READMEs resolves", () => {
    const markdown = markdownDocs(files);
    assert.ok(
      markdown.includes("docs/api.md") && markdown.includes("packages/widget/README.md"),
      "the docs are listed",
    );
    const broken = markdown.flatMap((file) => brokenLinks(file, fs.readFileSync(path.join(ROOT, file), "utf8")));
    assert.deepEqual(broken, []);
  });

  it("every source reference to a doc section names one that exists", () => {
    const sources = files.filter(
      (file) =>
        SOURCE_DIRS.some((dir) => file.startsWith(`${dir}/`)) &&
        file !== "test/setup/doc-links.test.ts" &&
        !/(^|\/)(node_modules|vendor|dist)\//.test(file),
    );
    assert.ok(sources.includes("server/http/routes.ts"), "the file list comes from git");
    const broken = sources.flatMap((file) => {
      const content = fs.readFileSync(path.join(ROOT, file));
      if (content.includes(0)) return []; // binary
      return brokenReferences(file, content.toString("utf8"));
    });
    assert.deepEqual(broken, []);
  });
});
