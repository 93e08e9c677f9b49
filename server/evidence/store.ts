import { createHash, randomUUID } from "node:crypto";
import { constants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

// Where evidence bytes live: content-addressed by SHA-256, so equal files are stored once and a row's `sha256` is
// both the address and the integrity check. The claims code sees only this interface; the filesystem store is the
// default (DATA_DIR/evidence), another (an object store) can take its place.

export interface EvidenceStore {
  /**
   * Writes the bytes aside, durably but at no address yet (the slow part, done before any lock is taken): the
   * request keeps them once every check has passed, or discards them. Nothing lists or serves staged bytes.
   */
  stage(bytes: Uint8Array): Promise<StagedEvidence>;
  /** The bytes at that address, or undefined when none are stored. */
  get(sha256: string): Promise<Uint8Array | undefined>;
  /** Removes the bytes at that address (none there: nothing happens). */
  delete(sha256: string): Promise<void>;
  /** Every stored address with the time its bytes were last put (the sweep keeps what was put recently). */
  list(): AsyncIterable<{ sha256: string; storedAt: number }>;
  /** Removes staged bytes older than `before` (epoch ms) that were neither kept nor discarded (a crash); how many. */
  discardStaleStaged(before: number): Promise<number>;
}

/** Bytes written by `stage`: `keep` puts them at their address, `discard` removes them; both may be repeated. */
export interface StagedEvidence {
  sha256: string;
  byteSize: number;
  /** Puts the bytes at their address (already there and intact: renews their time) and returns it. */
  keep(): Promise<void>;
  /** Removes the staged bytes unless kept: a refused request leaves nothing behind. */
  discard(): Promise<void>;
}

/** An address that is not 64 lowercase hex digits — never turned into a path. */
export class EvidenceAddressInvalidError extends Error {
  constructor() {
    super("An evidence address is 64 lowercase hexadecimal digits (a SHA-256).");
    this.name = "EvidenceAddressInvalidError";
  }
}

/** Stored bytes that no longer hash to their address (disk corruption or tampering): never served. */
export class EvidenceCorruptedError extends Error {
  constructor(sha256: string) {
    super(`The stored evidence ${sha256} does not match its SHA-256.`);
    this.name = "EvidenceCorruptedError";
  }
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Folders a web server of this repository serves files from (the app's public/ is copied into build/client/). */
const SERVED_FOLDERS = ["build", "public", "packages/widget/dist"].map((folder) => path.join(REPOSITORY_ROOT, folder));

/** The default evidence folder: `evidence` under DATA_DIR. */
export const defaultEvidenceDirectory = (dataDir: string): string => path.join(dataDir, "evidence");

const sha256Hex = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

const isInside = (folder: string, candidate: string): boolean => {
  const relative = path.relative(folder, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
};

/**
 * Files under `dir/ab/cd/<sha256>` (folders 0700, files 0600). `stage` writes to a temporary file in `dir/.staging`
 * and fsyncs it; `keep` renames it into place and fsyncs the folder: a reader sees the whole file or none, after a
 * crash too. Refuses a `dir` inside a folder the web server serves, where the files would be public.
 */
export function filesystemEvidenceStore(dir: string): EvidenceStore {
  const root = path.resolve(dir);
  const served = SERVED_FOLDERS.find((folder) => isInside(folder, root));
  if (served) throw new Error(`The evidence folder ${root} is inside ${served}, which is served to anyone.`);
  // On the store's own file system, so that keeping is a rename; not a two-hex-digit folder, so list() skips it.
  const staging = path.join(root, ".staging");

  const fileOf = (sha256: string): string => {
    if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) throw new EvidenceAddressInvalidError();
    return path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  };

  return {
    async stage(bytes) {
      const sha256 = sha256Hex(bytes);
      await fs.mkdir(staging, { recursive: true, mode: 0o700 });
      const temporary = path.join(staging, `${sha256}.${randomUUID()}.tmp`);
      const handle = await fs.open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } catch (error) {
        await handle.close();
        await fs.rm(temporary, { force: true });
        throw error;
      }
      await handle.close();
      const file = fileOf(sha256);
      return {
        sha256,
        byteSize: bytes.length,
        async keep() {
          // Already there and intact: nothing to move (a damaged copy is replaced below). Its time is renewed, so
          // that the sweep of unnamed files (server/domain/evidence-sweep.ts) never takes bytes about to be named.
          if ((await readIfPresent(file).then((stored) => stored && sha256Hex(stored))) === sha256) {
            const now = new Date();
            await fs.utimes(file, now, now);
            await fs.rm(temporary, { force: true });
            return;
          }
          const folder = path.dirname(file);
          await fs.mkdir(folder, { recursive: true, mode: 0o700 });
          // Two keeps of the same bytes may race: each renames its own complete copy, the last one wins, both equal.
          await fs.rename(temporary, file);
          await syncFolder(folder);
        },
        discard: () => fs.rm(temporary, { force: true }),
      };
    },

    async get(sha256) {
      const file = fileOf(sha256);
      const bytes = await readIfPresent(file);
      if (bytes && sha256Hex(bytes) !== sha256) throw new EvidenceCorruptedError(sha256);
      return bytes;
    },

    async delete(sha256) {
      await fs.rm(fileOf(sha256), { force: true });
    },

    async *list() {
      for (const first of await subfolders(root)) {
        for (const second of await subfolders(path.join(root, first))) {
          const folder = path.join(root, first, second);
          for (const name of await fs.readdir(folder)) {
            if (!SHA256_HEX.test(name)) continue; // not an address (nothing else is written here)
            const stat = await fs.stat(path.join(folder, name)).catch(() => undefined);
            if (stat) yield { sha256: name, storedAt: stat.mtimeMs };
          }
        }
      }
    },

    async discardStaleStaged(before) {
      let discarded = 0;
      for (const name of await namesIn(staging)) {
        const stat = await fs.stat(path.join(staging, name)).catch(() => undefined);
        if (!stat || stat.mtimeMs >= before) continue;
        await fs.rm(path.join(staging, name), { force: true });
        discarded++;
      }
      return discarded;
    },
  };
}

/** The names in `folder` (none when it does not exist yet). */
async function namesIn(folder: string): Promise<string[]> {
  try {
    return await fs.readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** The two-hex-digit folders of `folder` (none when it does not exist yet). */
async function subfolders(folder: string): Promise<string[]> {
  try {
    return (await fs.readdir(folder, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() && /^[0-9a-f]{2}$/.test(entry.name))
      .map((entry) => entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

async function readIfPresent(file: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await fs.readFile(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Makes a rename in `folder` durable (the folder's entry list reaches the disk). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
