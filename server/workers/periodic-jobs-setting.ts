// PERIODIC_JOBS and PERIODIC_JOBS_INTERVAL_MS as server/config.ts reads them: the job names and the setting's parser,
// apart from the jobs themselves (./periodic-jobs.ts), so that reading the configuration loads nothing else: the web
// server reads it before it loads the app's build.
import { z } from "zod";

export const PERIODIC_JOB_NAMES = ["purges", "settlements"] as const;
export type PeriodicJobName = (typeof PERIODIC_JOB_NAMES)[number];
/**
 * The default of PERIODIC_JOBS_INTERVAL_MS: the purges, and the look for ended settlement periods (docs/api.md
 * "Settlement"; closing one twice writes nothing), every 10 minutes.
 */
export const PERIODIC_JOBS_INTERVAL_MS = 10 * 60 * 1000;
export type PeriodicJobsSetting = "auto" | "on" | "off" | readonly PeriodicJobName[];

/** PERIODIC_JOBS as config.ts reads it. */
export const periodicJobsSetting = z
  .string()
  .trim()
  .transform((text, context): PeriodicJobsSetting => {
    if (text === "auto" || text === "on" || text === "off") return text;
    const names = text.split(",").map((name) => name.trim());
    const unknown = names.filter((name) => !(PERIODIC_JOB_NAMES as readonly string[]).includes(name));
    if (unknown.length === 0) return names as PeriodicJobName[];
    context.addIssue({
      code: "custom",
      message: `auto, on, off or a comma-separated list of ${PERIODIC_JOB_NAMES.join(", ")}; got '${text}'`,
    });
    return z.NEVER;
  });
