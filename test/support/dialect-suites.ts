// describe() over both databases, for test files only: it needs vitest's runner, which the scripts and benchmarks
// that import ./databases.ts do not run under.
import { describe } from "vitest";
import { DIALECTS, type Dialect } from "./databases.ts";

/**
 * describe.each(DIALECTS) for a suite whose tests follow one another on its clock (a calendar of weeks, cases that the
 * last test adds up): their order is kept under `--sequence.shuffle`, which reorders every other suite.
 */
export function describeEachDialectInOrder(name: string, suite: (dialect: Dialect) => void): void {
  for (const dialect of DIALECTS) describe(name.replace("%s", dialect), { shuffle: false }, () => suite(dialect));
}
