import { z } from "zod";
import { DEFAULT_DATABASE_URL } from "./store/open.ts";

/** Everything the service reads from the environment, with the embedded defaults. */
const environment = z.object({
  DATABASE_URL: z.string().default(DEFAULT_DATABASE_URL),
  HOST: z.string().default("127.0.0.1"),
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  COMPANY_NAME: z.string().min(1).default("Purchase Protection Inc."),
  PORTAL_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATA_DIR: z.string().default(".data"),
  ENCRYPTION_KEY: z.string().optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
});

export type Config = z.output<typeof environment> & { PORTAL_URL: string };

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`Invalid configuration: ${issue.path.join(".")}: ${issue.message}`);
  }
  const config = parsed.data;
  return { ...config, PORTAL_URL: (config.PORTAL_URL ?? `http://${config.HOST}:${config.PORT}/portal`).replace(/\/$/, "") };
}
