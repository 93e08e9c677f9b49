// The browser page suites (Chromium over `npm start`) run in full on SQLite and as a smoke on PostgreSQL: the pages,
// forms and scripts are the same on both, and what differs on PostgreSQL is the store, which each shell's smoke
// (one short flow through the dashboard, the claims console, the portal, reading and writing rows there) goes through;
// axe-core and the screenshots come from the SQLite run. The HTTP page suites (test/app/page-requests,
// test/dashboard, test/ops, test/portal without Chromium) and the API suites run in full on both databases.
import { it } from "vitest";
import type { Dialect } from "./databases.ts";

/** Registers nothing: a test of the full suite, in the file's run on PostgreSQL. */
const notOnThisDatabase = (() => {}) as unknown as typeof it;

/** `it` for a test of a page suite's full run: registered on SQLite only (the smoke's tests use vitest's `test`). */
export const fullSuiteIt = (dialect: Dialect): typeof it => (dialect === "sqlite" ? it : notOnThisDatabase);

/** The databases of a page suite that is full only: its shell's smoke on PostgreSQL is in another file. */
export const FULL_SUITE_DIALECTS: Dialect[] = ["sqlite"];
