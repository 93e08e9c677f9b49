// The SQLite store's background checkpointer (server/store/sqlite-checkpointer.ts), observed through the files.
import { describe, it, afterEach } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openSqlite, FALLBACK_CHECKPOINT_PAGES } from "./sqlite.ts";
import type { Database } from "./database.ts";
import { waitFor } from "../../test/support/wait.ts";

/** Two rows a 4 KiB page. */
const ROW_BYTES = 2000;

/** The WAL header's salts: SQLite changes them each time the WAL starts over from its beginning. */
function walSalts(file: string): string | undefined {
  try {
    const header = Buffer.alloc(24);
    const fd = fs.openSync(`${file}-wal`, "r");
    try {
      return fs.readSync(fd, header, 0, 24, 0) === 24 ? header.subarray(16, 24).toString("hex") : undefined;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** How many of this process's file descriptors are open on `file` (Linux: /proc/self/fd). */
function openDescriptors(file: string): number {
  return fs.readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}

describe("SQLite background checkpointer", () => {
  let dir: string;
  let db: Database | undefined;
  const open = (options = {}) => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-checkpointer-"));
    const file = path.join(dir, "store.sqlite");
    db = openSqlite(file, options);
    return { db, file };
  };
  afterEach(async () => {
    await db?.close();
    db = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("copies the WAL into the database file and starts it over while writes go on, far below the writer's own threshold", async () => {
    const { db, file } = open({ intervalMs: 10, restartPages: 64, startAfterCommits: 1 });
    await db.run("CREATE TABLE rows (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)");
    const payload = "x".repeat(ROW_BYTES);
    // Between two restarts, stay well below the writer's automatic checkpoint (a commit appends about two pages
    // here): whatever is checkpointed, the background did.
    const maxRows = Math.floor(FALLBACK_CHECKPOINT_PAGES / 4);
    let salts = walSalts(file);
    let restarts = 0;
    let rows = 0;
    let rowsSinceRestart = 0;
    const deadline = Date.now() + 30_000;
    while (restarts < 3 && rowsSinceRestart < maxRows && Date.now() < deadline) {
      await db.transaction((tx) => tx.run("INSERT INTO rows (payload) VALUES (?)", [payload]));
      rows += 1;
      rowsSinceRestart += 1;
      // Let the checkpointer's messages in, as a server's event loop would between requests. Past the restart size,
      // give its thread a tick of time too: on a loaded machine it may not have been scheduled yet.
      await new Promise((resolve) => (rowsSinceRestart > 64 ? setTimeout(resolve, 10) : setImmediate(resolve)));
      const now = walSalts(file);
      if (now !== salts) [salts, restarts, rowsSinceRestart] = [now, restarts + 1, 0];
    }
    assert.ok(restarts >= 3, `the WAL started over ${restarts} times; ${rowsSinceRestart} transactions since the last`);
    // The rows reached the database file itself, and every transaction committed.
    // A restart follows a checkpoint of the whole WAL: the rows written before the last one seen (less the one that
    // may have been written between the restart and the look) are in the file. The rows since may still be in the WAL.
    const checkpointedRows = rows - rowsSinceRestart - 1;
    assert.ok(
      fs.statSync(file).size >= checkpointedRows * ROW_BYTES,
      `database file ${fs.statSync(file).size} bytes for ${checkpointedRows} rows of ${ROW_BYTES} bytes`,
    );
    assert.deepEqual(await db.get("SELECT COUNT(*) AS n FROM rows"), { n: rows });
  });

  it.skipIf(!fs.existsSync("/proc/self/fd"))("closes its connection and ends with the database", async () => {
    const { db, file } = open({ startAfterCommits: 1 });
    await db.run("CREATE TABLE t (id INTEGER PRIMARY KEY)");
    // The writer, the reader and the checkpointer's connection (opened as its thread starts).
    await waitFor(() => openDescriptors(file) === 3, { what: "the checkpointer's connection" });
    await db.close();
    assert.equal(openDescriptors(file), 0);
  });
});
