import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Event } from "../../packages/sdk/src/responses.ts";

// A webhook receiver on loopback: records every request and answers as the test says (a status, a hang past the
// sender's timeout, or a dropped connection).

export interface ReceivedWebhook {
  eventId: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The body, parsed. */
  event: Event;
  path: string;
}

export type Reply = number | "hang" | "drop";

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedWebhook[];
  /** Decides each reply (default 200); may take its time. */
  reply: (request: ReceivedWebhook, index: number) => Reply | Promise<Reply>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const receiver = {
    received: [] as ReceivedWebhook[],
    reply: (() => 200) as Receiver["reply"],
  } as Receiver;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const request: ReceivedWebhook = {
        eventId: String(req.headers["x-service-event-id"]),
        timestamp: String(req.headers["x-service-timestamp"]),
        signature: String(req.headers["x-service-signature"]),
        body,
        event: body ? JSON.parse(body) : undefined,
        path: req.url ?? "/",
      };
      const index = receiver.received.length;
      receiver.received.push(request);
      const reply = await receiver.reply(request, index);
      if (res.destroyed) return;
      if (reply === "hang") {
        hanging.add(res);
        return;
      }
      if (reply === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(reply, { "Content-Type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hooks`;
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return receiver;
}
