// `shopify app build` as `npm test` runs it (scripts/test.ts): the Shopify CLI bundles the checkout extension and
// runs theme check on the theme embed, offline. One module so the test of the failure rule runs the same command.
import path from "node:path";
import { stripVTControlCharacters } from "node:util";

export const SHOPIFY_CLI = path.resolve(import.meta.dirname, "..", "node_modules", "@shopify", "cli", "bin", "run.js");
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
