// A redis-server of a test's own (`/usr/bin/redis-server`, or REDIS_SERVER), on a free port, nothing saved to disk:
// for tests that stop, freeze or restart Redis, which the shared one at 127.0.0.1:6379 must never be.
import { spawn } from "node:child_process";
import net from "node:net";
import readline from "node:readline";

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  /** SIGSTOP: the process keeps its socket open and stops answering (a hung Redis, like a network black hole). */
  freeze(): void;
  /** SIGCONT: it answers again, starting with what it was sent meanwhile. */
  thaw(): void;
  /** Ends the process (thawed first), resolved once it has exited. */
  stop(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Starts a redis-server and resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const child = spawn(
    process.env.REDIS_SERVER ?? "/usr/bin/redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`redis-server exited with ${code}`)));
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.includes("Ready to accept connections")) resolve();
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    freeze: () => child.kill("SIGSTOP"),
    thaw: () => child.kill("SIGCONT"),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGCONT");
        child.kill("SIGTERM");
      }
      await exited;
    },
  };
}
