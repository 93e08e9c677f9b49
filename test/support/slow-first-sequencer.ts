// The order in which `vitest run` hands files to its two workers. Vitest starts the files it has timings for longest
// first, but a fresh clone (CI) has none and it falls back to the largest files first: the minute-long files (a fresh
// clone's install, the Chromium suites over `npm run demo`, process hand-overs) are small and started last, and the
// run ended with one worker idle while the other finished them. These start first, in this order.
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The slowest files of a CI run (`npm test` prints them), slowest first; a file not here keeps vitest's order. */
export const SLOW_FIRST = [
  "test/setup/fresh-clone.test.ts",
  "test/webhooks/handover.test.ts",
  "test/dashboard/dashboard-pages.test.ts",
  "test/ops/console-pages.test.ts",
  "test/portal/portal-pages.test.ts",
  "test/portal/portal-languages.test.ts",
  "test/dashboard/merchant-forms.test.ts",
  "test/app/page-forms-fuzz.test.ts",
  "test/app/embedded-forms.test.ts",
  "test/email/email-caps-process.test.ts",
];

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (file: TestSpecification) => {
      const known = SLOW_FIRST.indexOf(path.relative(root, file.moduleId));
      return known === -1 ? SLOW_FIRST.length : known;
    };
    // Array.prototype.sort is stable: the rest stay in vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
