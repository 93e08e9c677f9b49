import { describe, it, beforeEach, afterEach } from "vitest";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  defaultEvidenceDirectory,
  EvidenceAddressInvalidError,
  EvidenceCorruptedError,
  filesystemEvidenceStore,
  type EvidenceStore,
} from "./store.ts";
import { loadConfig } from "../config.ts";
import { filesUnder, keepEvidence } from "../../test/support/evidence.ts";

const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("filesystemEvidenceStore", () => {
  let dir: string;
  let store: EvidenceStore;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "evidence-store-"));
    store = filesystemEvidenceStore(path.join(dir, "evidence"));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it("stores bytes under evidence/ab/cd/<sha256>, folders 0700 and the file 0600, and gives them back", async () => {
    const bytes = randomBytes(1000);
    const stored = await keepEvidence(store, bytes);
    assert.deepEqual(stored, { sha256: sha256(bytes), byteSize: 1000 });
    const relative = path.join(stored.sha256.slice(0, 2), stored.sha256.slice(2, 4), stored.sha256);
    assert.deepEqual(await filesUnder(path.join(dir, "evidence")), [relative]);
    const file = path.join(dir, "evidence", relative);
    assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
    for (const folder of [
      "",
      stored.sha256.slice(0, 2),
      path.join(stored.sha256.slice(0, 2), stored.sha256.slice(2, 4)),
    ]) {
      assert.equal((await fs.stat(path.join(dir, "evidence", folder))).mode & 0o777, 0o700, folder || "evidence");
    }
    assert.deepEqual(await store.get(stored.sha256), new Uint8Array(bytes));
    assert.equal(await store.get(sha256(Buffer.from("never stored"))), undefined);
  });

  it("stores equal content once: a second put, or five at once, leave one file and no temporary ones", async () => {
    const bytes = randomBytes(5000);
    const first = await keepEvidence(store, bytes);
    const file = path.join(dir, "evidence", first.sha256.slice(0, 2), first.sha256.slice(2, 4), first.sha256);
    const inode = (await fs.stat(file)).ino;
    assert.deepEqual(await keepEvidence(store, Uint8Array.from(bytes)), first);
    assert.equal((await fs.stat(file)).ino, inode, "the stored file was not rewritten");

    const other = randomBytes(5000);
    const results = await Promise.all(Array.from({ length: 5 }, () => keepEvidence(store, other)));
    assert.ok(results.every((result) => result.sha256 === sha256(other)));
    assert.equal((await filesUnder(path.join(dir, "evidence"))).length, 2);
    assert.deepEqual(await store.get(sha256(other)), new Uint8Array(other));
  });

  it("never lets a reader see a partly written file", async () => {
    const bytes = randomBytes(10 * 1024 * 1024);
    const address = sha256(bytes);
    const writing = keepEvidence(store, bytes);
    let done = false;
    void writing.then(() => (done = true));
    const seen: (number | undefined)[] = [];
    while (!done) seen.push((await store.get(address))?.length); // get verifies the hash: a partial file would throw
    await writing;
    assert.ok(
      seen.every((length) => length === undefined || length === bytes.length),
      String(seen),
    );
    assert.equal((await store.get(address))?.length, bytes.length);
  });

  it("stages bytes aside (0600, at no address, unlisted): kept, they move to their address; discarded, nothing stays", async () => {
    const root = path.join(dir, "evidence");
    const bytes = randomBytes(2000);
    const staged = await store.stage(bytes);
    assert.equal(staged.sha256, sha256(bytes));
    const [temporary] = await filesUnder(root);
    assert.match(temporary, /^\.staging\//);
    assert.equal((await fs.stat(path.join(root, temporary))).mode & 0o777, 0o600);
    assert.equal(await store.get(staged.sha256), undefined, "not served before it is kept");
    const listed = [];
    for await (const entry of store.list()) listed.push(entry);
    assert.deepEqual(listed, []);

    await staged.keep();
    await staged.keep(); // a transaction retried keeps again: nothing changes
    await staged.discard(); // discarding after keeping leaves the kept file
    const address = path.join(staged.sha256.slice(0, 2), staged.sha256.slice(2, 4), staged.sha256);
    assert.deepEqual(await filesUnder(root), [address]);
    assert.deepEqual(await store.get(staged.sha256), new Uint8Array(bytes));

    const refused = await store.stage(randomBytes(3000));
    await refused.discard();
    assert.deepEqual(await filesUnder(root), [address], "a discarded stage leaves no file");
    // Staging bytes already stored and discarding them leaves the stored file alone.
    const again = await store.stage(bytes);
    await again.discard();
    assert.deepEqual(await store.get(staged.sha256), new Uint8Array(bytes));
  });

  it("refuses addresses that are not 64 lowercase hex digits, so no path can be built from one", async () => {
    await fs.writeFile(path.join(dir, "secret"), "outside the store");
    const valid = sha256(Buffer.from("x"));
    for (const address of [
      "../secret",
      "../../secret",
      `${valid.slice(0, 62)}/.`,
      valid.toUpperCase(),
      `${valid}/../../secret`,
      `${valid}\0`,
      valid.slice(1),
      "",
      "/etc/passwd",
    ]) {
      await assert.rejects(store.get(address), EvidenceAddressInvalidError, address);
      await assert.rejects(store.delete(address), EvidenceAddressInvalidError, address);
    }
    assert.equal(await fs.readFile(path.join(dir, "secret"), "utf8"), "outside the store");
  });

  it("refuses to serve a file whose bytes no longer match their address", async () => {
    const { sha256: address } = await keepEvidence(store, Buffer.from("original"));
    const file = path.join(dir, "evidence", address.slice(0, 2), address.slice(2, 4), address);
    await fs.writeFile(file, "tampered");
    await assert.rejects(store.get(address), EvidenceCorruptedError);
    // A put of the real bytes repairs it.
    await keepEvidence(store, Buffer.from("original"));
    assert.equal(Buffer.from((await store.get(address))!).toString(), "original");
  });

  it("deletes, and deleting what is not there is no error", async () => {
    const { sha256: address } = await keepEvidence(store, Buffer.from("to delete"));
    await store.delete(address);
    assert.equal(await store.get(address), undefined);
    await store.delete(address);
  });

  it("lives under DATA_DIR by default and refuses a folder the web server serves", () => {
    const config = loadConfig({} as NodeJS.ProcessEnv);
    assert.equal(defaultEvidenceDirectory(config.DATA_DIR), path.join(".data", "evidence"));
    for (const served of ["build", "build/client/evidence", "public/evidence", "packages/widget/dist/x"]) {
      assert.throws(() => filesystemEvidenceStore(path.join(REPOSITORY_ROOT, served)), /served/, served);
    }
    filesystemEvidenceStore(path.join(REPOSITORY_ROOT, ".data", "evidence"));
  });
});
