// One contract, run against each Database implementation (SQLite and PostgreSQL).
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, DIALECTS, type TestDatabase } from "../../test/support/databases.ts";
import { findOwnedRow, forUpdate, isUniqueViolation, LockTimeoutError, type Queryable } from "./database.ts";
import { endKeyWaitBound } from "./idempotency.ts";

describe.each(DIALECTS)("Database contract (%s)", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(dialect);
    await t.db.transaction((tx) => tx.run("CREATE TABLE contract_items (id TEXT PRIMARY KEY, n BIGINT NOT NULL)"));
  });
  afterAll(() => t.drop());

  it("binds ? placeholders in order and returns rows, first rows and change counts", async () => {
    await t.db.transaction(async (tx) => {
      assert.equal(
        await tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?), (?, ?)", ["a", 1, "b", 1_795_000_000_000]),
        2,
      );
    });
    assert.deepEqual(await t.db.get("SELECT id, n FROM contract_items WHERE id = ?", ["b"]), {
      id: "b",
      n: 1_795_000_000_000,
    });
    assert.deepEqual(
      (await t.db.all<{ id: string }>("SELECT id FROM contract_items ORDER BY id")).map((r) => r.id),
      ["a", "b"],
    );
    assert.equal(await t.db.get("SELECT id FROM contract_items WHERE id = ?", ["zz"]), undefined);
  });

  it("commits a transaction that resolves and rolls back one that throws", async () => {
    await assert.rejects(
      t.db.transaction(async (tx) => {
        await tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["rolled-back", 1]);
        throw new Error("abort");
      }),
      /abort/,
    );
    assert.equal(await t.db.get("SELECT id FROM contract_items WHERE id = ?", ["rolled-back"]), undefined);
  });

  it("runAtCommit: the write commits with the transaction; its failure rolls the whole transaction back; work that throws never sends it", async () => {
    await t.db.transaction(async (tx) => {
      await tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["at-commit", 1]);
      await tx.runAtCommit("UPDATE contract_items SET n = ? WHERE id = ?", [2, "at-commit"]);
    });
    assert.deepEqual(await t.db.get("SELECT n FROM contract_items WHERE id = ?", ["at-commit"]), { n: 2 });

    // The deferred write fails (a duplicate key): nothing of the transaction stays, and the error is the write's.
    const error = await t.db
      .transaction(async (tx) => {
        await tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["before-failed-commit", 1]);
        await tx.runAtCommit("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["at-commit", 3]);
      })
      .catch((e) => e);
    assert.ok(isUniqueViolation(error), String(error));
    assert.equal(await t.db.get("SELECT id FROM contract_items WHERE id = ?", ["before-failed-commit"]), undefined);
    assert.deepEqual(await t.db.get("SELECT n FROM contract_items WHERE id = ?", ["at-commit"]), { n: 2 });

    await assert.rejects(
      t.db.transaction(async (tx) => {
        await tx.runAtCommit("UPDATE contract_items SET n = ? WHERE id = ?", [9, "at-commit"]);
        throw new Error("abort");
      }),
      /abort/,
    );
    assert.deepEqual(await t.db.get("SELECT n FROM contract_items WHERE id = ?", ["at-commit"]), { n: 2 });
    // The connection is clean afterwards: the next transaction on it works.
    await t.db.transaction((tx) => tx.run("DELETE FROM contract_items WHERE id = ?", ["at-commit"]));
  });

  describe("findOwnedRow", () => {
    const owner = { merchantId: "mer_a", mode: "test" };
    beforeAll(async () => {
      await t.db.transaction(async (tx) => {
        await tx.run(
          "CREATE TABLE owned_items (id TEXT PRIMARY KEY, merchant_id TEXT NOT NULL, mode TEXT NOT NULL, created_at BIGINT NOT NULL, label TEXT NOT NULL)",
        );
        await tx.run("CREATE INDEX owned_items_owner ON owned_items (merchant_id, mode, created_at)");
        const rows = [
          ["own_1", "mer_a", "test"],
          ["own_live", "mer_a", "live"],
          ["own_other", "mer_b", "test"],
        ];
        for (const [id, merchantId, mode] of rows)
          await tx.run("INSERT INTO owned_items (id, merchant_id, mode, created_at, label) VALUES (?, ?, ?, 1, ?)", [
            id,
            merchantId,
            mode,
            `label of ${id}`,
          ]);
      });
    });

    it("finds the owner's row by id, and nothing for another merchant's, another mode's or an unknown id", async () => {
      const find = (id: string) =>
        findOwnedRow<{ id: string; label: string }>(t.db, owner, "owned_items", "id, label", id);
      const own = await find("own_1");
      assert.deepEqual({ id: own?.id, label: own?.label }, { id: "own_1", label: "label of own_1" });
      for (const id of ["own_live", "own_other", "own_none"]) assert.equal(await find(id), undefined, id);
    });

    if (dialect === "postgres")
      it("is planned on the primary key even before the table has statistics", async () => {
        await t.db.transaction(async (tx) => {
          await tx.run("ALTER TABLE owned_items SET (autovacuum_enabled = false)");
          await tx.run(
            "INSERT INTO owned_items (id, merchant_id, mode, created_at, label) SELECT 'bulk_' || n, 'mer_a', 'test', n, 'x' FROM generate_series(1, 20000) n",
          );
        });
        // The statement findOwnedRow sends, explained with its parameter.
        let sent = "";
        const recording: Queryable = {
          ...t.db,
          get: async (sql) => {
            sent = sql;
            return undefined;
          },
        };
        await findOwnedRow(recording, owner, "owned_items", "id, label", "bulk_19999");
        const plan = await t.db.all<{ "QUERY PLAN": string }>(`EXPLAIN ${sent.replace("?", "'bulk_19999'")}`);
        assert.match(plan.map((row) => row["QUERY PLAN"]).join("\n"), /Index Scan using owned_items_pkey/);
      });
  });

  it("asyncCommit: the transaction's writes commit; on PostgreSQL it alone runs with synchronous_commit off", async () => {
    const setting = (tx: Queryable) =>
      dialect === "postgres"
        ? tx.get<{ synchronous_commit: string }>("SHOW synchronous_commit").then((row) => row!.synchronous_commit)
        : Promise.resolve("n/a");
    const inside = await t.db.transaction(
      async (tx) => {
        await tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["async-commit", 1]);
        return setting(tx);
      },
      { asyncCommit: true },
    );
    assert.equal(inside, dialect === "postgres" ? "off" : "n/a");
    assert.equal(
      await t.db.transaction((tx) => setting(tx)),
      dialect === "postgres" ? "on" : "n/a",
      "the next one waits again",
    );
    assert.deepEqual(await t.db.get("SELECT n FROM contract_items WHERE id = ?", ["async-commit"]), { n: 1 });
  });

  it("reports unique violations recognisably", async () => {
    const error = await t.db
      .transaction((tx) => tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["a", 2]))
      .catch((e) => e);
    assert.ok(isUniqueViolation(error), String(error));
  });

  it("reads outside a transaction never see another transaction's uncommitted writes", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const insertDone = new Promise<void>((resolve) => (written = resolve));
    const writing = t.db.transaction(async (tx) => {
      await tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["pending", 1]);
      written();
      await gate;
    });
    await insertDone;
    assert.equal(await t.db.get("SELECT id FROM contract_items WHERE id = ?", ["pending"]), undefined);
    release();
    await writing;
    assert.deepEqual(await t.db.get("SELECT id FROM contract_items WHERE id = ?", ["pending"]), { id: "pending" });
  });

  it("a write outside a transaction, sent while one is open, waits for it and then applies", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    await t.db.transaction((tx) => tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["outside", 0]));
    const open = t.db.transaction(async (tx) => {
      await tx.run("UPDATE contract_items SET n = ? WHERE id = ?", [1, "outside"]);
      opened();
      await gate;
    });
    await isOpen;
    const started = Date.now();
    const outside = t.db.run("UPDATE contract_items SET n = ? WHERE id = ?", [2, "outside"]);
    release();
    assert.equal(await outside, 1);
    await open;
    // On SQLite such a write once went to the read-only connection: "database is locked" after the 5 s busy wait.
    assert.ok(Date.now() - started < 2_000, `the write waited ${Date.now() - started} ms`);
    assert.deepEqual(await t.db.get("SELECT n FROM contract_items WHERE id = ?", ["outside"]), { n: 2 });
  });

  it("serialises transactions that update the same row (no lost update)", async () => {
    await t.db.transaction((tx) => tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["counter", 0]));
    await Promise.all(
      Array.from({ length: 20 }, () =>
        t.db.transaction(async (tx) => {
          const row = await tx.get<{ n: number }>(`SELECT n FROM contract_items WHERE id = ?${forUpdate(tx)}`, [
            "counter",
          ]);
          await new Promise((resolve) => setImmediate(resolve));
          await tx.run("UPDATE contract_items SET n = ? WHERE id = ?", [row!.n + 1, "counter"]);
        }),
      ),
    );
    assert.deepEqual(await t.db.get("SELECT n FROM contract_items WHERE id = ?", ["counter"]), { n: 20 });
  });

  if (dialect === "postgres") {
    it("turns a lock wait past lockTimeoutMs into LockTimeoutError", async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holder = t.db.transaction(async (tx) => {
        await tx.get("SELECT n FROM contract_items WHERE id = ? FOR UPDATE", ["a"]);
        locked();
        await gate;
      });
      await lockTaken;
      await assert.rejects(
        t.db.transaction((tx) => tx.get("SELECT n FROM contract_items WHERE id = ? FOR UPDATE", ["a"]), {
          lockTimeoutMs: 50,
        }),
        LockTimeoutError,
      );
      release();
      await holder;
    });

    it("a transaction reports its first failure, not the 25P02 its pipelined statements after it got", async () => {
      const error = await t.db
        .transaction(async (tx) => {
          // Sent together (pipeline mode); the second is awaited first and answers "transaction is aborted".
          const failing = tx.run("INSERT INTO contract_items (id, n) VALUES (?, ?)", ["a", 3]);
          failing.catch(() => undefined);
          await tx.get("SELECT 1 AS one");
          await failing;
        })
        .catch((e) => e);
      assert.ok(isUniqueViolation(error), String(error));
    });

    it("endKeyWaitBound: after it, the transaction's own lock waits are not bounded by lockTimeoutMs", async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const lockTaken = new Promise<void>((resolve) => (locked = resolve));
      const holder = t.db.transaction(async (tx) => {
        await tx.get("SELECT n FROM contract_items WHERE id = ? FOR UPDATE", ["b"]);
        locked();
        await gate;
      });
      await lockTaken;
      let asked!: () => void;
      const waiting = new Promise<void>((resolve) => (asked = resolve));
      const waiter = t.db.transaction(
        async (tx) => {
          await endKeyWaitBound(tx);
          const row = tx.get<{ n: number }>("SELECT n FROM contract_items WHERE id = ? FOR UPDATE", ["b"]);
          asked();
          return row;
        },
        { lockTimeoutMs: 50 },
      );
      await waiting;
      // Held well past the 50 ms bound, then released: the waiter gets the row instead of LockTimeoutError.
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await holder;
      assert.deepEqual(await waiter, { n: 1_795_000_000_000 });
    });
  }
});
