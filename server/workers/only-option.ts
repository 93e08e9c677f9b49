// `npm run worker -- --only webhooks,email`: which of the server's workers a worker process runs (default: all).
import { parseArgs } from "node:util";
import { SERVER_WORKERS, type ServerWorkerName } from "./background-jobs.ts";

export function workersToRun(args: readonly string[]): Set<ServerWorkerName> {
  const { values } = parseArgs({ args: [...args], options: { only: { type: "string" } } });
  if (values.only === undefined) return new Set(SERVER_WORKERS);
  const names = values.only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !(SERVER_WORKERS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0)
    throw new Error(`--only takes a comma-separated list of ${SERVER_WORKERS.join(", ")}; got '${values.only}'`);
  return new Set(names as ServerWorkerName[]);
}
