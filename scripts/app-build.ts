// The Remix app's production build (build/), made again only when it is stale: older than a source file it is built
// from (app/, server/, packages/*/src, vite.config.ts, public/; tests excluded). A cheap mtime walk, and a lock so
// that two demos, or two test files, never write build/ at once (Vite empties it first; a server reading it would
// break).
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "..");
export const SERVER_BUILD = path.join(ROOT, "build", "server", "index.js");
const REMIX_CLI = path.join(ROOT, "node_modules", "@remix-run", "dev", "dist", "cli.js");
const LOCK = path.join(ROOT, "node_modules", ".cache", "app-build.lock");
/** A lock older than this was left by a build that died. */
const STALE_LOCK_MS = 5 * 60_000;

function sourceRoots(root: string): string[] {
  const packages = path.join(root, "packages");
  return [
    path.join(root, "app"),
    path.join(root, "server"),
    ...(fs.existsSync(packages) ? fs.readdirSync(packages).map((name) => path.join(packages, name, "src")) : []),
    path.join(root, "vite.config.ts"),
    path.join(root, "public"), // copied as is into build/client (the favicon)
  ].filter((source) => fs.existsSync(source));
}

/** The first source file newer than `since`, or undefined. */
function newerSource(source: string, since: number): string | undefined {
  const stat = fs.statSync(source);
  if (!stat.isDirectory()) return stat.mtimeMs > since && !/\.test\.[cm]?[jt]sx?$/.test(source) ? source : undefined;
  for (const entry of fs.readdirSync(source)) {
    const found = newerSource(path.join(source, entry), since);
    if (found) return found;
  }
  return undefined;
}

/** Why `root`'s build/ must be made again (none yet, or a source file is newer); undefined when it is current. */
export function appBuildStaleness(root: string = ROOT): string | undefined {
  const serverBuild = path.join(root, path.relative(ROOT, SERVER_BUILD));
  if (!fs.existsSync(serverBuild)) return "there is no build yet";
  const builtAt = fs.statSync(serverBuild).mtimeMs;
  for (const source of sourceRoots(root)) {
    const newer = newerSource(source, builtAt);
    if (newer) return `${path.relative(root, newer)} is newer than build/`;
  }
  return undefined;
}

/** Builds the app (`remix vite:build`) when it is stale; `onBuild` hears why before it starts. */
export async function ensureAppBuilt(onBuild: (reason: string) => void = () => {}): Promise<void> {
  if (!appBuildStaleness()) return;
  await withLock(async () => {
    // Another process may have built it while this one waited for the lock.
    const reason = appBuildStaleness();
    if (!reason) return;
    onBuild(reason);
    await promisify(execFile)(process.execPath, [REMIX_CLI, "vite:build"], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    }).catch((error: Error & { stdout?: string; stderr?: string }) => {
      throw new Error(`remix vite:build failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`, { cause: error });
    });
  });
}

async function withLock(work: () => Promise<void>): Promise<void> {
  fs.mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (fs.statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > STALE_LOCK_MS) fs.rmSync(LOCK, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await work();
  } finally {
    fs.rmSync(LOCK, { recursive: true, force: true });
  }
}
