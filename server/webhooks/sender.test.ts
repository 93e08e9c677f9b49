// What a delivery keeps of the receiver's answer: its first 500 characters (multi-byte ones whole), however long the
// answer; nothing when it sent no body.
import { describe, it, afterAll, beforeAll } from "vitest";
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { EXCERPT_CHARS, send } from "./sender.ts";

describe("webhook sender: the answer's excerpt", () => {
  let server: http.Server;
  let origin = "";
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (req.url === "/long") res.end("é".repeat(100_000));
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("keeps the first 500 characters of a long answer, and reads the rest", async () => {
    const result = await send({ url: `${origin}/long`, headers: {}, body: "{}", timeoutMs: 5_000 });
    assert.equal(result.statusCode, 200);
    assert.equal(result.responseExcerpt, "é".repeat(EXCERPT_CHARS));
  });

  it("keeps nothing of an empty answer", async () => {
    const result = await send({ url: `${origin}/empty`, headers: {}, body: "{}", timeoutMs: 5_000 });
    assert.equal(result.statusCode, 204);
    assert.equal(result.responseExcerpt, null);
  });
});
