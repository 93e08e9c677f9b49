// `npm run api` stopped as an orchestrator stops it (SIGTERM to npm's process), with clients on kept-alive connections:
// the drain (server/graceful-shutdown.ts) moves them to another instance within one request and loses no request.
import { describe, it, beforeAll, afterAll } from "vitest";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { once } from "node:events";
import { createTestDatabase, type TestDatabase } from "../support/databases.ts";
import { connectionRefused, startNpmScript } from "../support/npm-script.ts";
import { waitFor } from "../support/wait.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

/** A raw response's status line and headers. */
const head = (text: string) => text.slice(0, text.indexOf("\r\n\r\n") + 2);

/** A raw connection's text holds one whole response (its headers, and as many body bytes as Content-Length says). */
function holdsWholeResponse(text: string): boolean {
  const headEnd = text.indexOf("\r\n\r\n");
  const length = /\r\ncontent-length: (\d+)/i.exec(text.slice(0, headEnd));
  return headEnd >= 0 && !!length && Buffer.byteLength(text.slice(headEnd + 4)) >= Number(length[1]);
}

async function text(response: http.IncomingMessage): Promise<string> {
  let received = "";
  for await (const chunk of response.setEncoding("utf8")) received += chunk;
  return received;
}

/** A GET through `agent`; resolves once its response has been read, with the connection it went over. */
function send(agent: http.Agent, port: number, path: string) {
  return new Promise<{ response: http.IncomingMessage; socket: net.Socket }>((resolve, reject) => {
    const request = http.get({ agent, host: "127.0.0.1", port, path }, (response) =>
      response.resume().on("end", () => resolve({ response, socket: request.socket! })),
    );
    request.on("error", reject);
  });
}

describe("the servers' drain on SIGTERM (server/graceful-shutdown.ts)", () => {
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

  it(
    "through npm: closes idle kept-alive connections at once, answers Connection: close on the busy ones, " +
      "finishes the request in flight, refuses new connections, and exits 0",
    async () => {
      const api = await startNpmScript(
        "api",
        // A grace far longer than the test waits: a prompt exit is the drain's doing, not the grace timer's.
        { ...process.env, DATABASE_URL: database.url, DATA_DIR: dataDir, PORT: "0", SHUTDOWN_GRACE_MS: "60000" },
        (line) => line.msg === "protection API listening",
      );
      try {
        const port = Number(new URL(String(api.started.url)).port);

        // An idle kept-alive connection: one request answered, the socket back in its agent's pool.
        const idleAgent = new http.Agent({ keepAlive: true });
        const answered = await send(idleAgent, port, "/api/v1/openapi.json");
        assert.equal(answered.response.headers.connection, "keep-alive");
        const idleClosed = once(answered.socket, "close");

        // A busy kept-alive connection: one response read, the next request's headers half sent.
        const busy = net.connect(port, "127.0.0.1");
        let busyText = "";
        busy.setEncoding("utf8").on("data", (chunk: string) => (busyText += chunk));
        busy.write("GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        await waitFor(() => holdsWholeResponse(busyText), { what: "the busy connection's first response" });
        assert.match(head(busyText), /\r\nConnection: keep-alive\r\n/i);
        busyText = "";
        const busyEnded = once(busy, "end");
        busy.write("GET /api/v1/openapi.json HTTP/1.1\r\n");

        // The request in flight, on a kept-alive agent: headers and half the body now, the rest after SIGTERM. The
        // server's "100 Continue" says it has the request (and, as it was written later, the busy connection's bytes).
        const agent = new http.Agent({ keepAlive: true });
        const body = JSON.stringify({
          order_amount_cents: 5_000,
          order_id: "order-shutdown",
          protection_program_id: merchant.programId,
        });
        const inFlight = http.request({
          agent,
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/v1/offers/quote",
          headers: {
            Authorization: `Bearer ${merchant.secretKey}`,
            "Idempotency-Key": "shutdown-test-key-0001",
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(body),
            Expect: "100-continue",
          },
        });
        const inFlightResponse = once(inFlight, "response") as Promise<[http.IncomingMessage]>;
        inFlight.flushHeaders();
        await once(inFlight, "continue");
        inFlight.write(body.slice(0, 20));

        process.kill(api.child.pid!, "SIGTERM"); // npm's process, as an orchestrator signals it
        await idleClosed;
        await waitFor(() => connectionRefused(port), { timeoutMs: 5_000, what: "new connections to be refused" });

        // The busy connection's next response says Connection: close, and then the server closes the connection.
        busy.write("Host: 127.0.0.1\r\n\r\n");
        await busyEnded;
        assert.match(head(busyText), /^HTTP\/1\.1 200 OK\r\n/);
        assert.match(head(busyText), /\r\nConnection: close\r\n/i);
        busy.destroy();

        // The request in flight gets its normal answer, with Connection: close; the agent's next request needs a new
        // connection, which is refused (a client with other instances would go to one of them).
        inFlight.end(body.slice(20));
        const [response] = await inFlightResponse;
        const answer = await text(response);
        assert.equal(response.statusCode, 200);
        assert.match(answer, /"quoteId":"qt_/);
        assert.equal(response.headers.connection, "close");
        await waitFor(() => response.socket.destroyed, { what: "the in-flight request's connection to be closed" });
        await assert.rejects(send(agent, port, "/api/v1/openapi.json"), { code: "ECONNREFUSED" });

        assert.deepEqual(await api.exited, { code: 0, signal: null });
        assert.ok(
          await database.db.get("SELECT id FROM quotes WHERE order_id = ?", ["order-shutdown"]),
          "the in-flight quote was committed",
        );
      } finally {
        api.killGroup();
      }
    },
  );

  it("delivers an answer whole that is complete but still being flushed to a slow reader when SIGTERM lands", async () => {
    const server = spawn(process.execPath, [path.join(import.meta.dirname, "fixtures", "big-answer-server.ts")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(server, "exit");
    try {
      const logged: Record<string, unknown>[] = [];
      readline.createInterface({ input: server.stdout! }).on("line", (line) => logged.push(JSON.parse(line)));
      const { port } = await waitFor(() => logged.find((line) => line.port), { what: "the server to listen" });

      const reader = net.connect(Number(port), "127.0.0.1");
      reader.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
      const chunks: Buffer[] = [];
      reader.on("data", (chunk: Buffer) => chunks.push(chunk));
      await once(reader, "data");
      reader.pause(); // a slow reader: most of the answer waits in the server's process
      server.kill("SIGTERM");
      await waitFor(() => logged.some((line) => line.msg === "shutting down: finishing in-flight requests"), {
        what: "the drain to begin",
      });

      reader.resume();
      await once(reader, "end");
      const received = Buffer.concat(chunks).toString("latin1");
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head(received))![1]);
      assert.equal(received.length - head(received).length - 2, length, "the whole answer arrived");
      assert.deepEqual(await exited, [0, null]);
    } finally {
      server.kill("SIGKILL");
    }
  });
});
