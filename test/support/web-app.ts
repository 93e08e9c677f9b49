// The web app's process: `node scripts/web-server.ts`, exactly what `npm start` runs (test/app/web-server.test.ts
// checks the script says so; it `exec`s, so signals reach node), over the current build (made first when stale,
// scripts/app-build.ts).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { ensureAppBuilt } from "../../scripts/app-build.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const WEB_SERVER_COMMAND = "exec node scripts/web-server.ts";

export interface WebAppProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`, as the process logged it. */
  origin: string;
  /** Everything it wrote so far (stdout and stderr). */
  output(): string;
  /** SIGTERM; resolves with the exit code once it has exited. */
  stop(): Promise<number | null>;
}

/**
 * This process's environment with `settings` and without what would make the app something else: a demo, a Shopify app
 * (its keys), or a server bound elsewhere (HOST). A production start on the test's own database.
 */
export function plainAppEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...settings };
  for (const name of ["HOST", "DEMO", "SHOPIFY_API_KEY", "SHOPIFY_API_SECRET", "SHOPIFY_APP_URL", "SCOPES"])
    delete env[name];
  return env;
}

/** Starts the web app with `env` as its whole environment (PORT=0 unless given); resolves once it listens. */
export async function startWebApp(env: NodeJS.ProcessEnv): Promise<WebAppProcess> {
  await ensureAppBuilt();
  const [, command, ...args] = WEB_SERVER_COMMAND.split(" ");
  const child = spawn(command === "node" ? process.execPath : command, args, {
    cwd: ROOT,
    env: { PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const origin = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the web app exited with ${code}:\n${output}`)));
    const timer = setTimeout(() => reject(new Error(`the web app did not start:\n${output}`)), 60_000);
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        // Its pino line at level info (LOG_LEVEL=info or lower, then).
        const listening = output
          .split("\n")
          .slice(0, -1)
          .find((line) => line.includes('"msg":"web app listening"'));
        if (listening) {
          clearTimeout(timer);
          resolve(JSON.parse(listening).url);
        }
      });
    }
  });
  return {
    child,
    origin,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
