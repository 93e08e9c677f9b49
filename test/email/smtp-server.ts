// A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed (mailparser), with each message's
// envelope recipients; it can refuse the next recipients (451) to test retries, and counts the connections it was
// opened (and how many are open); and the protection API sending its buyer e-mails to one.
import type { AddressInfo } from "node:net";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";
import type { Dialect } from "../support/databases.ts";
import { startTestApi, type TestApi } from "../support/api-server.ts";

export interface Received {
  to: string[];
  mail: ParsedMail;
}

export async function startSmtpServer() {
  const received: Received[] = [];
  let refuseNext = 0;
  const connections = { opened: 0, open: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onConnect(_session, callback) {
      connections.opened++;
      connections.open++;
      callback();
    },
    onClose() {
      connections.open--;
    },
    onRcptTo(address, _session, callback) {
      if (refuseNext > 0) {
        refuseNext--;
        return callback(
          Object.assign(new Error(`<${address.address}>: Mailbox temporarily unavailable`), { responseCode: 451 }),
        );
      }
      callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream).then((mail) => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), mail });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    connections,
    refuse(count: number) {
      refuseNext = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type TestSmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

/** A real SMTP server and the protection API on `dialect` sending its buyer e-mails there, as Acme Guarantee. */
export async function startMailingApi(dialect: Dialect): Promise<{ smtp: TestSmtpServer; t: TestApi }> {
  const smtp = await startSmtpServer();
  try {
    const t = await startTestApi({
      dialect,
      companyName: "Acme Guarantee Ltd.",
      email: { transport: nodemailer.createTransport(smtp.url), from: "Acme Guarantee <protection@acme.example>" },
    });
    return { smtp, t };
  } catch (error) {
    await smtp.close();
    throw error;
  }
}
