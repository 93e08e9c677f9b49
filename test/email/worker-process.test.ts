// `npm run worker -- --only email` as its own process beside an API that does not send (EMAIL_WORKER=off, or no
// transport as here): it sends the e-mail the API queued (here to DATA_DIR/mail, the transport without SMTP_URL),
// runs the e-mail workers only (the buyers' e-mails and the team's digests), and stops on SIGTERM with exit code 0. On SQLite and PostgreSQL.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { randomUUID } from "node:crypto";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient } from "../support/client.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe.each(DIALECTS)("npm run worker -- --only email (%s)", (dialect) => {
  let t: TestApi;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-worker-email-"));
  beforeAll(async () => (t = await startTestApi({ dialect })));
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends the e-mail the API queued, runs no other worker, and exits 0 on SIGTERM", async () => {
    const client = apiClient(t.baseUrl, t.merchant.secretKey);
    const quoted = await client.post("/headless/quote", {
      order_amount_cents: 12_345,
      order_id: `order-${randomUUID()}`,
      protection_program_id: t.merchant.programId,
      currency: "USD",
      customer_email: "ada@example.com",
    });
    const confirmed = await client.post("/headless/confirm", { quote_id: quoted.body.quote_id });
    assert.equal(confirmed.status, 200, confirmed.text);
    const message = () =>
      t.database.db.get<{ status: string }>("SELECT status FROM email_messages WHERE plan_id = ?", [
        confirmed.body.plan_id,
      ]);
    assert.equal((await message())!.status, "pending", "queued, not sent by the API");

    const { SMTP_URL: _files, ...env } = process.env;
    const child = spawn(process.execPath, ["server/worker.ts", "--only", "email"], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
      env: {
        ...env,
        DATABASE_URL: t.database.url,
        ENCRYPTION_KEY: t.encryptionKey.toString("base64"),
        DATA_DIR: dataDir,
        LOG_LEVEL: "info",
      },
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const lines: Record<string, unknown>[] = [];
    const written = new Promise<string>((resolve, reject) => {
      void exited.then((code) => reject(new Error(`the worker exited with ${code} before sending`)));
      readline.createInterface({ input: child.stdout! }).on("line", (line) => {
        const entry = JSON.parse(line);
        lines.push(entry);
        if (entry.msg === "e-mail written to a file (set SMTP_URL to send it)") resolve(String(entry.file));
      });
    });
    const file = await written;
    assert.match(fs.readFileSync(file, "utf8"), /^To: ada@example\.com$/m);

    child.kill("SIGTERM");
    assert.equal(await exited, 0, "graceful exit on SIGTERM");
    assert.equal((await message())!.status, "sent");
    // The e-mail workers (the buyers' e-mails and the team's digests, docs/dashboard.md "Needs your action"), no other.
    assert.deepEqual(
      lines
        .filter((line) => line.msg === "worker started")
        .map((line) => line.worker)
        .sort(),
      ["digests", "email"],
      "no other worker ran",
    );
  });
});
