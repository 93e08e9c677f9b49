// `npm start` (scripts/web-server.ts) as its real process: it binds 127.0.0.1 unless HOST says otherwise, serves the
// build's assets with their cache headers, has no demo page, answers a GET to the webhook route with 405, and on SIGTERM
// finishes the request in flight, then exits 0 without waiting for idle keep-alive connections.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { plainAppEnv, startWebApp, WEB_SERVER_COMMAND, type WebAppProcess } from "../support/web-app.ts";
import { waitFor } from "../support/wait.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("npm start: the web app's own server", () => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  let app: WebAppProcess;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-web-server-"));

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
    };
    merchant = await database.db.transaction((tx) => createTestMerchant(tx, services, { name: "Web Store" }));
    const env = plainAppEnv({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // Far longer than the test waits: a prompt exit is the server's doing, not the grace timer's.
      SHUTDOWN_GRACE_MS: "60000",
    });
    app = await startWebApp(env);
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("is what `npm start` runs", () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    assert.equal(scripts.start, WEB_SERVER_COMMAND);
  });

  it("binds 127.0.0.1 by default, not every interface", async () => {
    assert.match(app.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    const { port } = new URL(app.origin);
    const elsewhere = Object.values(os.networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal)?.address;
    if (!elsewhere) return;
    const refused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(Number(port), elsewhere);
      probe.on("connect", () => (probe.destroy(), resolve(false)));
      probe.on("error", () => resolve(true));
    });
    assert.equal(refused, true, `nothing listens on ${elsewhere}:${port}`);
  });

  it("serves the build's fingerprinted assets immutable for a year, and the pages and API through Remix", async () => {
    const asset = fs.readdirSync(path.join(ROOT, "build", "client", "assets")).find((name) => name.endsWith(".js"));
    const response = await fetch(`${app.origin}/assets/${asset}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get("cache-control"), "public, max-age=31536000, immutable");
    await response.arrayBuffer();
    const landing = await fetch(`${app.origin}/`);
    assert.equal(landing.status, 200);
    assert.match(await landing.text(), /Purchase Protection/);
    assert.equal((await (await fetch(`${app.origin}/api/v1/openapi.json`)).json()).openapi, "3.1.0");
  });

  it("has no demo page: /demo is a 404 (the demo exists only under `npm run demo`)", async () => {
    const response = await fetch(`${app.origin}/demo`);
    assert.equal(response.status, 404);
    await response.arrayBuffer();
  });

  it("answers a non-POST to the webhook route with 405 and Allow: POST, logging no error", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await fetch(`${app.origin}/webhooks/orders/create`, { method });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get("allow"), "POST", method);
      await response.arrayBuffer();
    }
    assert.doesNotMatch(app.output(), /Unexpected Server Error|Error:|"level":50/);
  });

  it("SIGTERM: finishes the request in flight, refuses new connections, exits 0 promptly", async () => {
    const { port } = new URL(app.origin);
    const body = JSON.stringify({
      order_amount_cents: 5_000,
      order_id: "order-web-shutdown",
      protection_program_id: merchant.programId,
    });
    const socket = net.connect(Number(port), "127.0.0.1");
    await once(socket, "connect");
    let response = "";
    socket.setEncoding("utf8").on("data", (chunk: string) => (response += chunk));
    // Headers and half the body; the server's "100 Continue" says it has the request, so it is in flight.
    socket.write(
      `POST /api/v1/offers/quote HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${merchant.secretKey}\r\n` +
        `Idempotency-Key: web-shutdown-key-0001\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 20),
    );
    await waitFor(() => response.startsWith("HTTP/1.1 100 Continue"), { what: "100 Continue" });
    const signalled = Date.now();
    const exitCode = app.stop();

    const connectionRefused = () =>
      new Promise<boolean>((resolve) => {
        const probe = net.connect(Number(port), "127.0.0.1");
        probe.on("connect", () => (probe.destroy(), resolve(false)));
        probe.on("error", () => resolve(true));
      });
    await waitFor(connectionRefused, { timeoutMs: 5_000, what: "new connections to be refused" });

    socket.end(body.slice(20));
    await once(socket, "close");
    assert.match(response, /HTTP\/1\.1 200 OK/);
    assert.match(response, /"quoteId":"qt_/);
    assert.equal(await exitCode, 0);
    // Earlier fetches left idle keep-alive connections; remix-serve waited for them (30 s and more).
    assert.ok(Date.now() - signalled < 5_000, `exited ${Date.now() - signalled} ms after SIGTERM`);
    assert.ok(
      await database.db.get("SELECT id FROM quotes WHERE order_id = ?", ["order-web-shutdown"]),
      "the in-flight quote was committed",
    );
  });
});
