import { describe, it } from "vitest";
import assert from "node:assert/strict";
import net from "node:net";
import { once } from "node:events";
import { waitFor } from "../../test/support/wait.ts";
import { coalesceWrites } from "./coalesce-writes.ts";

// What goes to the kernel: a socket hands it data through _write (one chunk) or _writev (several at once), one
// system call each.
describe("coalesceWrites", () => {
  async function connectedPair() {
    const server = net.createServer();
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const client = net.connect((server.address() as net.AddressInfo).port, "127.0.0.1");
    const [accepted] = (await once(server, "connection")) as [net.Socket];
    await once(client, "connect");
    const handoffs: number[] = [];
    type Handoff = (this: net.Socket, ...args: unknown[]) => void;
    const socket = client as net.Socket & { _write: Handoff; _writev: Handoff };
    const [write, writev] = [socket._write, socket._writev];
    socket._write = function (this: net.Socket, ...args: unknown[]) {
      handoffs.push(1);
      return write.apply(this, args);
    };
    socket._writev = function (this: net.Socket, ...args: unknown[]) {
      handoffs.push((args[0] as unknown[]).length);
      return writev.apply(this, args);
    };
    let received = "";
    accepted.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
    const close = () => {
      client.destroy();
      accepted.destroy();
      server.close();
    };
    return { client, handoffs, received: () => received, close };
  }

  it("hands the writes of one tick to the kernel at once, and each later tick's on its own", async () => {
    const pair = await connectedPair();
    try {
      coalesceWrites(pair.client);
      pair.client.write("BEGIN;");
      pair.client.write("INSERT;");
      pair.client.write("SELECT;");
      await new Promise((resolve) => setImmediate(resolve));
      pair.client.write("COMMIT;");
      await waitFor(() => pair.received() === "BEGIN;INSERT;SELECT;COMMIT;", { what: "every write received" });
      assert.deepEqual(pair.handoffs, [3, 1]);
    } finally {
      pair.close();
    }
  });

  it("without it, each write is a hand-off of its own", async () => {
    const pair = await connectedPair();
    try {
      pair.client.write("BEGIN;");
      pair.client.write("INSERT;");
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(pair.handoffs.length, 2);
    } finally {
      pair.close();
    }
  });
});
