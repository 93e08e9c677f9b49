// `npm run demo` as a newcomer starts it: its own process (group), a fresh embedded database and data directory, port
// 0 (the system picks a free one and the demo prints it). Resolves once the printed block is complete.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { plainAppEnv } from "./web-app.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface DemoProcess {
  child: ChildProcess;
  /** Everything it printed up to "Ctrl-C stops the server". */
  output: string;
  readyMs: number;
  /** Whether it built the app first (build/ was stale). */
  built: boolean;
  /** The web app's origin it printed (http://127.0.0.1:<port>). */
  origin: string;
  stop(): void;
}

/** The environment of a demo on its own database and data directory in `dir`; `settings` add to it. */
export function demoEnvironment(dir: string, settings: Record<string, string> = {}): NodeJS.ProcessEnv {
  return plainAppEnv({
    DATABASE_URL: `file:${dir}/demo.sqlite`,
    DATA_DIR: dir,
    PORT: "0",
    LOG_LEVEL: "warn",
    ...settings,
  });
}

export function startDemo(env: NodeJS.ProcessEnv): Promise<DemoProcess> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    // Its own process group, so that stopping it reaches the node process npm started, not only npm.
    const child = spawn("npm", ["run", "-s", "demo"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    // The first build of the app takes minutes on a busy machine.
    const timer = setTimeout(() => reject(new Error(`demo did not start:\n${output}`)), 280_000);
    for (const stream of [child.stdout!, child.stderr!]) {
      stream.on("data", (chunk) => {
        output += chunk;
        if (output.includes("Ctrl-C stops the server")) {
          clearTimeout(timer);
          const origin = output.match(/the web app on (http:\/\/127\.0\.0\.1:\d+)/)?.[1] ?? "";
          resolve({
            child,
            output,
            readyMs: Date.now() - started,
            built: output.includes("Building the app"),
            origin,
            stop: () => {
              if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
            },
          });
        }
      });
    }
    child.on("exit", (code) => reject(new Error(`demo exited with ${code}:\n${output}`)));
  });
}
