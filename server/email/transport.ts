// Where e-mails go: an SMTP server when SMTP_URL is set (nodemailer), else — the embedded default, nothing to
// start — files in DATA_DIR/mail/, one .eml per message, so `npm run demo` shows what a buyer would receive.
import fs from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import nodemailer from "nodemailer";
import type { MailTransport } from "./worker.ts";

export function createMailTransport(options: { smtpUrl?: string; dataDir: string; logger: Logger }): MailTransport {
  if (options.smtpUrl) return nodemailer.createTransport(options.smtpUrl);
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
