import { Writable } from "node:stream";
import pino from "pino";

/** A logger whose lines (at `level` and above) the test can read. */
export function capturedLogger(level: pino.Level = "warn") {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}
