// Evidence store helpers for tests: storing bytes outright, and what the store's folder holds.
import fs from "node:fs/promises";
import path from "node:path";
import type { EvidenceStore } from "../../server/evidence/index.ts";

/** Stages and keeps the bytes at once (what a request does once its checks pass); their address and size. */
export async function keepEvidence(
  store: EvidenceStore,
  bytes: Uint8Array,
): Promise<{ sha256: string; byteSize: number }> {
  const staged = await store.stage(bytes);
  await staged.keep();
  return { sha256: staged.sha256, byteSize: staged.byteSize };
}

/** Every file under `dir` (staged ones included), relative, sorted; none when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}
