// The installations a process keeps (app/shopify/installations.server.ts installationReader): every order job reads
// its shop's, so a process keeps each one and checks only its row's version before using it. Two readers on their own
// connections to one database stand for two app processes: whatever one process (or the other) writes to the row —
// uninstall, re-install with new keys, going live, a new protection product, shop/redact and a new install — the next
// read of both sees it.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { createTestDatabase, type Dialect, type TestDatabase } from "../support/databases.ts";
import { openDatabase } from "../../server/store/open.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";
import { createSealer } from "../../server/secrets/sealer.ts";
import { createProgram } from "../../server/domain/programs.ts";
import { eraseMerchantRows, eraseShopRows, mintKeyPair, type Database, type Queryable } from "../../server/index.ts";
import {
  installationReader,
  installShop,
  saveProtectionProduct,
  uninstallShop,
} from "../../app/shopify/installations.server.ts";
import { switchShopToLive } from "../../app/shopify/store/shops.ts";

const SHOP = "kept-installation.myshopify.com";

/** The database as one process uses it, with the statements it ran. */
function recorded(db: Database): { db: Queryable; statements: string[] } {
  const statements: string[] = [];
  type Params = Parameters<Queryable["run"]>[1];
  const ran = (sql: string) => statements.push(sql);
  return {
    statements,
    db: {
      dialect: db.dialect,
      all: <T>(sql: string, params?: Params) => (ran(sql), db.all<T>(sql, params)),
      get: <T>(sql: string, params?: Params) => (ran(sql), db.get<T>(sql, params)),
      run: (sql, params) => (ran(sql), db.run(sql, params)),
      runAtCommit: (sql, params) => (ran(sql), db.runAtCommit(sql, params)),
    },
  };
}

for (const dialect of ["sqlite", "postgres"] as Dialect[]) {
  describe(`a process's kept installations (${dialect})`, () => {
    const sealer = createSealer(Buffer.alloc(32, 7));
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test Ltd", portalUrl: "https://portal.example.test" },
    };
    let database: TestDatabase;
    let other: Database;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      other = openDatabase(database.url);
    });
    afterAll(async () => {
      await other?.close();
      await database?.drop();
    });

    it("an unchanged installation is read by its version alone; every change, by either process, is seen by the next read", async () => {
      const first = recorded(database.db);
      const second = recorded(other);
      const readers = [installationReader(first.db, sealer), installationReader(second.db, sealer)];
      const readBoth = () => Promise.all(readers.map((read) => read(SHOP)));

      assert.deepEqual(await readBoth(), [undefined, undefined], "never installed");
      await database.db.transaction((tx) => installShop(tx, services, sealer, SHOP));
      const [installed, installedToo] = await readBoth();
      assert.equal(installed!.status, "installed");
      assert.deepEqual(installedToo, installed);

      first.statements.length = 0;
      assert.equal(await readers[0](SHOP), installed, "the kept one");
      assert.deepEqual(first.statements, ["SELECT version FROM shop_installations WHERE shop = ?"]);

      // The storefront setup (the other process): a protection product and its tiers.
      await saveProtectionProduct(other, services, SHOP, {
        productId: "4242",
        tiers: [{ priceCents: 150, variantId: "1" }],
      });
      for (const installation of await readBoth()) {
        assert.equal(installation!.productId, "4242");
        assert.deepEqual(installation!.tiers, [{ priceCents: 150, variantId: "1" }]);
      }

      // Going live: the live secret key and program.
      const { merchantId } = installed!;
      await database.db.transaction(async (tx) => {
        const programId = await createProgram(tx, services, { merchantId, mode: "live" });
        const keys = await mintKeyPair(tx, services, { merchantId, mode: "live" });
        await switchShopToLive(
          tx,
          SHOP,
          { secretKeySealed: sealer.seal(keys.secretKey), publishableKey: keys.publishableKey, programId },
          services.clock(),
        );
      });
      const live = await readBoth();
      for (const installation of live) {
        assert.equal(installation!.mode, "live");
        assert.match(installation!.secretKey, /_live_/);
        assert.notEqual(installation!.programId, installed!.programId);
      }

      // Uninstalled by the other process, then installed again with fresh keys.
      await other.transaction((tx) => uninstallShop(tx, services, SHOP));
      assert.deepEqual(
        (await readBoth()).map((installation) => installation!.status),
        ["uninstalled", "uninstalled"],
      );
      await database.db.transaction((tx) => installShop(tx, services, sealer, SHOP));
      for (const installation of await readBoth()) {
        assert.equal(installation!.status, "installed");
        assert.notEqual(installation!.secretKey, live[0]!.secretKey, "the re-install's new key");
      }

      // shop/redact erases the row; a new install makes a new one, never mistaken for a kept one.
      const beforeErasure = (await readBoth())[0]!;
      await other.transaction(async (tx) => {
        await eraseMerchantRows(tx, beforeErasure.merchantId);
        await eraseShopRows(tx, SHOP);
      });
      assert.deepEqual(await readBoth(), [undefined, undefined]);
      await database.db.transaction((tx) => installShop(tx, services, sealer, SHOP));
      for (const installation of await readBoth()) {
        assert.equal(installation!.status, "installed");
        assert.notEqual(installation!.merchantId, beforeErasure.merchantId);
        assert.notEqual(installation!.version, beforeErasure.version);
      }
    });
  });
}
