// A newcomer's shell on this machine: the system Node and nothing of this checkout (no Node 22 first on PATH, no
// npm_config_* or NODE_ENV that npm gives its scripts). What the fresh-clone and bootstrap tests run commands in.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The machine's own Node, never .tools/'s. */
export const SYSTEM_NODE = ["/usr/local/bin/node", "/usr/bin/node"].find((file) => fs.existsSync(file));

/**
 * HOME (npm's cache and the user's npmrc), PATH with the system Node's folder first, and how the machine reaches the
 * registry: a proxy if it has one, and the CA certificates Node is told to trust. Without those certificates, behind a
 * private CA, npm's download of Node 22 retried for about 70 s before it fell back to its cache (11 s with them).
 */
export function systemShellEnv(systemNode: string): NodeJS.ProcessEnv {
  const reachRegistry = /^((https?|no)_proxy|NODE_EXTRA_CA_CERTS)$/i;
  // No NODE_ENV: a newcomer's shell has none (npm sets it for the scripts it runs).
  const env: Record<string, string | undefined> = {
    HOME: os.homedir(),
    PATH: [path.dirname(systemNode), "/usr/bin", "/bin"].join(":"),
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => reachRegistry.test(name))),
  };
  return env as NodeJS.ProcessEnv;
}
