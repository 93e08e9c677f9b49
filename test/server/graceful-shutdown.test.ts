import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { waitFor } from "../support/wait.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `npm run api`'s process (node server/main.ts), resolved once it logs where it listens. */
async function startApi(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ["server/main.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  for await (const chunk of child.stdout!) {
    output += chunk;
    const listening = /"url":"http:\/\/127\.0\.0\.1:(\d+)\/api\/v1"/.exec(output);
    if (listening) return { child, port: Number(listening[1]) };
  }
  throw new Error(`the API did not start:\n${output}`);
}

describe("standalone API: graceful shutdown on SIGTERM", () => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-shutdown-"));

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
    };
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Shutdown Store" }));
  });
  afterAll(async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("finishes the request in flight, refuses new connections, and exits 0", async () => {
    const { child, port } = await startApi({
      ...process.env,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: "0",
      LOG_LEVEL: "info",
    });
    const body = JSON.stringify({
      order_amount_cents: 5_000,
      order_id: "order-shutdown",
      protection_program_id: merchant.programId,
    });
    const socket = net.connect(port, "127.0.0.1");
    await once(socket, "connect");
    // Headers and half the body now; the rest after SIGTERM, so the request is in flight when the signal lands.
    socket.write(
      `POST /api/v1/offers/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${merchant.secretKey}\r\n` +
        `Idempotency-Key: shutdown-test-key-0001\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 20),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const exited = once(child, "exit");
    child.kill("SIGTERM");

    const connectionRefused = () =>
      new Promise<boolean>((resolve) => {
        const probe = net.connect(port, "127.0.0.1");
        probe.on("connect", () => (probe.destroy(), resolve(false)));
        probe.on("error", () => resolve(true));
      });
    const refused = await waitFor(connectionRefused, { timeoutMs: 5_000, what: "new connections to be refused" });
    assert.equal(refused, true, "no new connections once shutting down");

    let response = "";
    socket.on("data", (chunk) => (response += chunk));
    socket.end(body.slice(20));
    await once(socket, "close");
    assert.match(response, /^HTTP\/1\.1 200 OK/);
    assert.match(response, /"quoteId":"qt_/);

    const [code] = await exited;
    assert.equal(code, 0);
    assert.ok(
      await database.db.get("SELECT id FROM quotes WHERE order_id = ?", ["order-shutdown"]),
      "the in-flight quote was committed",
    );
  });
});
