import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../../test/support/databases.ts";
import { filesUnder, keepEvidence } from "../../test/support/evidence.ts";
import { filesystemEvidenceStore } from "../evidence/index.ts";
import { EVIDENCE_SWEEP_GRACE_MS, sweepUnnamedEvidence } from "./evidence-sweep.ts";

describe.each(DIALECTS)("the sweep of unnamed evidence (%s)", (dialect) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "pp-sweep-"));
  });
  afterAll(async () => {
    await database.drop();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("deletes the bytes no evidence row names once the grace window has passed, and nothing else", async () => {
    const store = filesystemEvidenceStore(dir);
    const hoursAgo = async (sha256: string, hours: number) => {
      const at = new Date(Date.now() - hours * 3_600_000);
      await fs.utimes(path.join(dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256), at, at);
    };
    const named = await keepEvidence(store, new TextEncoder().encode("named by a row"));
    const orphan = await keepEvidence(store, new TextEncoder().encode("left by a refused claim"));
    const fresh = await keepEvidence(store, new TextEncoder().encode("its request has not committed yet"));
    await hoursAgo(named.sha256, 2);
    await hoursAgo(orphan.sha256, 2);
    await database.db.run(
      `INSERT INTO claim_evidence (id, claim_id, entry_id, merchant_id, mode, sha256, content_type, byte_size, file_name, created_at)
       VALUES ('evd_sweep', 'clm_sweep', 'cte_sweep', 'mer_sweep', 'test', ?, 'application/pdf', 14, 'a.pdf', 0)`,
      [named.sha256],
    );

    assert.equal(await sweepUnnamedEvidence(database.db, store, Date.now()), 1);
    assert.ok(await store.get(named.sha256), "named by a row: kept");
    assert.equal(await store.get(orphan.sha256), undefined, "unnamed and old: deleted");
    assert.ok(await store.get(fresh.sha256), "unnamed but within the grace window: kept");

    // Putting bytes again renews them: an old orphan a new claim is about to name survives the next sweep.
    await hoursAgo(fresh.sha256, 2);
    await keepEvidence(store, new TextEncoder().encode("its request has not committed yet"));
    assert.equal(await sweepUnnamedEvidence(database.db, store, Date.now(), EVIDENCE_SWEEP_GRACE_MS), 0);
    assert.ok(await store.get(fresh.sha256));
  });

  it("deletes staged bytes a crashed request neither kept nor discarded, once the grace window has passed", async () => {
    const store = filesystemEvidenceStore(dir);
    const before = await filesUnder(dir);
    await store.stage(new TextEncoder().encode("staged by a request that crashed"));
    const recent = await store.stage(new TextEncoder().encode("staged by a request still running"));
    const [crashed] = (await filesUnder(dir)).filter((file) => !before.includes(file) && !file.includes(recent.sha256));
    const at = new Date(Date.now() - 2 * 3_600_000);
    await fs.utimes(path.join(dir, crashed), at, at);

    assert.equal(await sweepUnnamedEvidence(database.db, store, Date.now()), 1);
    assert.deepEqual(
      (await filesUnder(dir)).filter((file) => !before.includes(file)).map((file) => file.includes(recent.sha256)),
      [true],
    );
    await recent.keep();
    assert.ok(await store.get(recent.sha256), "the running request still keeps its bytes");
  });
});
