import type { Socket } from "node:net";

/**
 * Holds a connection's writes until the end of the current tick, so that statements issued in one tick (BEGIN and a
 * transaction's first statement; the runAtCommit ones and COMMIT; pipelined groups) leave in one writev: pg corks
 * only within one query, and on loopback each write is a system call that also wakes the server (bench:api
 * --postgres --profile: writev 40 % of a quote's CPU). Nothing in pg or Node does this across queries.
 */
export function coalesceWrites(socket: Socket) {
  const write = socket.write;
  let held = false;
  socket.write = function (this: Socket, ...args: Parameters<Socket["write"]>) {
    if (!held) {
      held = true;
      socket.cork();
      process.nextTick(() => {
        held = false;
        socket.uncork();
      });
    }
    return write.apply(this, args);
  } as Socket["write"];
}
