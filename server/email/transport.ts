// Where e-mails go: an SMTP server when SMTP_URL is set (nodemailer), else — the embedded default, nothing to
// start — files in DATA_DIR/mail/, one .eml per message, so `npm run demo` shows what a buyer would receive.
// SMTP goes through a pool of kept-open connections (nodemailer's, at most 5, each renewed after 100 messages):
// a connection per message paid a TCP and TLS handshake and the server's greeting each time. `?pool=false` in the URL
// turns it off; `close()` ends the pool's connections when the process stops.
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import nodemailer from "nodemailer";
import type { MailTransport } from "./worker.ts";

export function createMailTransport(options: { smtpUrl?: string; dataDir: string; logger: Logger }): MailTransport {
  if (options.smtpUrl) return nodemailer.createTransport(pooledByDefault(options.smtpUrl));
  const dir = path.join(options.dataDir, "mail");
  const writer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  return {
    async sendMail(message) {
      const info = await writer.sendMail(message);
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${message.headers?.["X-Service-Message-Id"] ?? info.messageId}.eml`,
      );
      fs.writeFileSync(file, info.message as Buffer);
      // Never the recipient: no log line carries a buyer's address (the file itself is the e-mail).
      options.logger.info({ file }, "e-mail written to a file (set SMTP_URL to send it)");
      return { messageId: info.messageId };
    },
  };
}

/** nodemailer reads its options from the URL alone when given one, `pool` among them. */
function pooledByDefault(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  if (!url.searchParams.has("pool")) url.searchParams.set("pool", "true");
  return url.toString();
}
