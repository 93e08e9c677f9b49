// A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed (mailparser), with each message's
// envelope recipients; it can refuse the next recipients (451) to test retries, and counts the connections it was
// opened (and how many are open).
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { simpleParser, type ParsedMail } from "mailparser";

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
