// `shopify app build` as `npm test` runs it (scripts/test.ts): the Shopify CLI bundles the checkout extension and
// runs theme check on the theme embed, offline. One module so the test of the failure rule runs the same command.
import fs from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "..");
export const SHOPIFY_CLI = path.join(ROOT, "node_modules", "@shopify", "cli", "bin", "run.js");
export const SHOPIFY_APP_BUILD_ARGS = ["app", "build", "--no-color"];
/** CI=1: the CLI skips its notifications fetch and its self-upgrade (which would edit package.json); no analytics. */
export const SHOPIFY_APP_BUILD_ENV = { CI: "1", SHOPIFY_CLI_NO_ANALYTICS: "1" };

// Theme check's "[error]:"/"[warning]:", esbuild's "✘ [ERROR]"/"▲ [WARNING]", the CLI's error box.
const PROBLEM_LINE = /\[(error|warning)\]|╭─ error/i;

/** The lines of the build's output that report a problem: the CLI exits 0 on theme check offenses and warnings. */
export function buildProblems(output: string): string[] {
  return stripVTControlCharacters(output)
    .split("\n")
    .filter((line) => PROBLEM_LINE.test(line));
}

/** The type files the build rewrites, one per UI extension; each is committed exactly as the CLI writes it. */
export const SHOPIFY_TYPE_FILES = ["checkout-protection", "post-purchase"].map((name) =>
  path.join("extensions", name, "shopify.d.ts"),
);

/** The type files' text before the build, for typesRewritten to compare with after it. */
export function readTypeFiles(root = ROOT): Map<string, string> {
  return new Map(SHOPIFY_TYPE_FILES.map((file) => [file, fs.readFileSync(path.join(root, file), "utf8")]));
}

/**
 * A line for each type file the build wrote differently from the committed one: the extension would type-check on a
 * fresh clone against other types than the ones a build gives.
 */
export function typesRewritten(before: Map<string, string>, root = ROOT): string[] {
  return [...before]
    .filter(([file, text]) => fs.readFileSync(path.join(root, file), "utf8") !== text)
    .map(
      ([file]) =>
        `${file}: shopify app build wrote it differently from the committed file (commit the CLI's version, git diff shows it)`,
    );
}
