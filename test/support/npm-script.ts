// A package.json script run as an operator or an orchestrator runs it: `npm run <script>` with Node 22's npm, its own
// process the one that gets signals. The JSON log lines the server writes (npm's banner aside) are collected.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface NpmScriptProcess {
  /** npm's own process: what the orchestrator started. */
  child: ChildProcess;
  /** Every JSON log line written to stdout so far. */
  lines: Record<string, unknown>[];
  /** The line `started` picked. */
  started: Record<string, unknown>;
  /** npm's exit code and signal, once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL to npm's process group: whatever a failed test left running (a node npm did not take down). */
  killGroup(): void;
}

/** Runs `npm run <script>` with `env` as its whole environment; resolves once a log line passes `started`. */
export async function startNpmScript(
  script: string,
  env: NodeJS.ProcessEnv,
  started: (line: Record<string, unknown>) => boolean,
): Promise<NpmScriptProcess> {
  // npm runs on the `node` first on PATH, and so does the script's `node`: this test's Node 22.
  const PATH = [path.dirname(process.execPath), env.PATH].join(path.delimiter);
  const child = spawn("npm", ["run", script], {
    cwd: ROOT,
    env: { ...env, PATH },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, for killGroup; signals in the test go to npm's pid alone
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const killGroup = () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // nothing left
    }
  };
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const lines: Record<string, unknown>[] = [];
  const startedLine = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`npm run ${script} did not start:\n${stderr}`));
    }, 60_000);
    child.once("exit", (code) => reject(new Error(`npm run ${script} exited with ${code}:\n${stderr}`)));
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!line.startsWith("{")) return; // npm's "> purchase-protection@… <script>" banner
      const entry = JSON.parse(line);
      lines.push(entry);
      if (started(entry)) {
        clearTimeout(timer);
        resolve(entry);
      }
    });
  });
  return { child, lines, started: startedLine, exited, killGroup };
}

/** Whether a new connection to 127.0.0.1:`port` is refused (nothing listens there any more). */
export function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(port, "127.0.0.1");
    probe.on("connect", () => (probe.destroy(), resolve(false)));
    probe.on("error", () => resolve(true));
  });
}
