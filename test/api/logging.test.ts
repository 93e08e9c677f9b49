import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { DIALECTS } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";
import { apiClient, orderContextFor } from "../support/client.ts";
import { createMailTransport } from "../../server/email/transport.ts";
import type { MailTransport } from "../../server/email/worker.ts";
import { EMAIL_RETRY_DELAYS_MS } from "../../server/email/worker.ts";

describe.each(DIALECTS)("structured logs (%s)", (dialect) => {
  let t: TestApi;
  const lines: string[] = [];
  const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-mail-"));
  beforeAll(async () => {
    const sink = new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) });
    const logger = pino({ level: "trace" }, sink);
    // The default transport (files in DATA_DIR/mail), except that each message's first attempt is refused the way an
    // SMTP server refuses, quoting the recipient: the e-mail worker logs that failure.
    const files = createMailTransport({ dataDir: mailDir, logger });
    const refused = new Set<string>();
    const transport: MailTransport = {
      async sendMail(message) {
        const id = message.headers!["X-Service-Message-Id"];
        if (refused.has(id)) return files.sendMail(message);
        refused.add(id);
        throw new Error(
          `Can't send mail - all recipients were rejected: 550 5.1.1 <${message.to}>: Recipient address rejected`,
        );
      },
    };
    t = await startTestApi({ dialect, logger, email: { transport, from: "Protection <protection@example.test>" } });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  it("log one line per request with its request id, and never a key, token, secret or e-mail address", async () => {
    // The requests counted below are this test's: the suite's other tests log to the same sink, in any order.
    const linesBefore = lines.length;
    const widget = apiClient(t.baseUrl, t.merchant.publishableKey);
    const quote = await widget.post(
      "/offers/quote",
      {
        order_amount_cents: 2_500,
        order_id: "order-log",
        protection_program_id: t.merchant.programId,
        customer_email: "buyer@example.com",
      },
      { idempotencyKey: "logging-test-idempotency-1" },
    );
    const token = quote.headers.get("x-service-quote-token")!;
    const confirm = await widget.post("/offers/confirm", {
      quoteId: quote.body.quoteId,
      quoteToken: token,
      order_context: orderContextFor(quote.body),
    });
    await apiClient(t.baseUrl, t.merchant.secretKey).get("/purchases");
    // The real key with its last character changed: well-formed, unknown.
    const wrongKey = t.merchant.secretKey.slice(0, -1) + (t.merchant.secretKey.endsWith("x") ? "y" : "x");
    const refused = await apiClient(t.baseUrl, wrongKey).get("/purchases");
    assert.equal(refused.status, 401);

    const log = lines.join("");
    for (const secret of [
      t.merchant.publishableKey,
      t.merchant.secretKey,
      wrongKey,
      token,
      "buyer@example.com",
      "logging-test-idempotency-1",
    ]) {
      assert.ok(!log.includes(secret), `the log must not contain ${secret.slice(0, 12)}…`);
    }
    const requests = lines
      .slice(linesBefore)
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.msg === "request");
    assert.equal(requests.length, 4);
    assert.deepEqual(
      requests.map((entry) => [entry.method, entry.path, entry.status]),
      [
        ["POST", "/api/v1/offers/quote", 200],
        ["POST", "/api/v1/offers/confirm", 200],
        ["GET", "/api/v1/purchases", 200],
        ["GET", "/api/v1/purchases", 401],
      ],
    );
    assert.equal(requests[1].request_id, confirm.headers.get("x-request-id"));
    assert.equal(requests[3].request_id, refused.body.error.request_id);
  });

  it("the e-mail worker and the file mail transport never log the buyer's address", async () => {
    const buyer = "Mailbox.Owner@example.com";
    const secret = apiClient(t.baseUrl, t.merchant.secretKey);
    const quoted = await secret.post("/headless/quote", {
      order_amount_cents: 2_500,
      order_id: "order-mail-log",
      protection_program_id: t.merchant.programId,
      customer_email: buyer,
    });
    assert.equal((await secret.post("/headless/confirm", { quote_id: quoted.body.quote_id })).status, 200);

    assert.ok((await t.api.email!.runOnce()) >= 1, "refused once");
    t.clock.advance(EMAIL_RETRY_DELAYS_MS[0]);
    assert.ok((await t.api.email!.runOnce()) >= 1, "then written to a file");
    const mail = fs
      .readdirSync(path.join(mailDir, "mail"))
      .map((file) => fs.readFileSync(path.join(mailDir, "mail", file), "utf8"));
    assert.ok(
      mail.some((message) => message.includes(`To: ${buyer}`)),
      "the e-mail itself went to the buyer",
    );

    const messages = lines.map((line) => JSON.parse(line).msg);
    assert.ok(messages.includes("e-mail failed; retrying"), "the worker logged the refusal");
    assert.ok(messages.includes("e-mail written to a file (set SMTP_URL to send it)"), "the transport logged the file");
    const log = lines.join("").toLowerCase();
    for (const address of [buyer, "buyer@example.com"])
      assert.ok(!log.includes(address.toLowerCase()), `the log must not contain ${address}`);
  });
});
