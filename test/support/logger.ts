import { Writable } from "node:stream";
import pino from "pino";

/** A logger whose lines the test can read. */
export function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: "warn" }, stream), lines };
}
