import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import readline from "node:readline";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ApiProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>/api/v1` */
  baseUrl: string;
  /** Every JSON log line the process wrote to stdout so far. */
  lines: Record<string, unknown>[];
  /** SIGTERM, resolved when the process has exited. */
  stop(): Promise<void>;
}

/** `node server/main.ts` (what `npm run api` runs) on a free port; resolves once it listens. */
export async function startApiProcess(env: Record<string, string>): Promise<ApiProcess> {
  const child = spawn(process.execPath, ["server/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines: Record<string, unknown>[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the API process exited with ${code}`)));
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      const entry = JSON.parse(line);
      lines.push(entry);
      if (entry.msg === "protection API listening") resolve(entry.url);
    });
  });
  return {
    child,
    baseUrl,
    lines,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
