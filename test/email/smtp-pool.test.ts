// SMTP_URL's messages go through one kept-open connection (server/email/transport.ts), unless the URL says
// `pool=false`; closing the transport ends it.
import { afterEach, describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMailTransport } from "../../server/email/transport.ts";
import { startSmtpServer, type TestSmtpServer } from "./smtp-server.ts";
import { capturedLogger } from "../support/logger.ts";
import { waitFor } from "../support/wait.ts";

const message = (n: number) => ({
  from: "Store <store@example.com>",
  to: `buyer${n}@example.com`,
  subject: `Message ${n}`,
  text: `Body ${n}`,
  html: `<p>Body ${n}</p>`,
});

describe("the SMTP transport", () => {
  let smtp: TestSmtpServer | undefined;
  afterEach(async () => {
    await smtp?.close();
    smtp = undefined;
  });
  const transportTo = (url: string) =>
    createMailTransport({
      smtpUrl: url,
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "pp-mail-")),
      logger: capturedLogger().logger,
    });

  it("sends one message after another over one connection, and close() ends it", async () => {
    smtp = await startSmtpServer();
    const transport = transportTo(smtp.url);
    for (const n of [1, 2, 3]) await transport.sendMail(message(n));
    assert.deepEqual(
      smtp.received.map((item) => item.to),
      [["buyer1@example.com"], ["buyer2@example.com"], ["buyer3@example.com"]],
    );
    assert.equal(smtp.connections.opened, 1);
    transport.close?.();
    await waitFor(() => smtp!.connections.open === 0, { what: "the pool's connection closed" });
  });

  it("opens a connection per message with pool=false in the URL", async () => {
    smtp = await startSmtpServer();
    const transport = transportTo(`${smtp.url}?pool=false`);
    for (const n of [1, 2, 3]) await transport.sendMail(message(n));
    assert.equal(smtp.received.length, 3);
    assert.equal(smtp.connections.opened, 3);
  });
});
