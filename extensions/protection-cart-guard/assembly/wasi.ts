// The WASI calls a Shopify Function may make (wasi_snapshot_preview1): read the input from stdin, write the output to
// stdout and debug lines to stderr. The module imports nothing else.

// @ts-ignore: decorator
@external("wasi_snapshot_preview1", "fd_read")
declare function fd_read(fd: u32, iovs: usize, iovsLength: u32, read: usize): u16;

// @ts-ignore: decorator
@external("wasi_snapshot_preview1", "fd_write")
declare function fd_write(fd: u32, iovs: usize, iovsLength: u32, written: usize): u16;

const STDIN: u32 = 0;
const STDOUT: u32 = 1;
const STDERR: u32 = 2;
const CHUNK: i32 = 16384;

/** One iovec (buffer pointer, length) and the count the call returns. */
const iovec = memory.data(8);
const count = memory.data(4);

/** Everything on stdin, until end of file. */
export function readStdin(): Uint8Array {
  let input = new Uint8Array(0);
  const chunk = new Uint8Array(CHUNK);
  while (true) {
    store<usize>(iovec, chunk.dataStart);
    store<u32>(iovec, CHUNK, sizeof<usize>());
    if (fd_read(STDIN, iovec, 1, count) != 0) throw new Error("cannot read stdin");
    const read = load<u32>(count);
    if (read == 0) return input;
    const grown = new Uint8Array(input.length + read);
    grown.set(input);
    grown.set(chunk.subarray(0, read), input.length);
    input = grown;
  }
}

function write(fd: u32, text: string): void {
  const bytes = Uint8Array.wrap(String.UTF8.encode(text));
  let offset = 0;
  while (offset < bytes.length) {
    store<usize>(iovec, bytes.dataStart + offset);
    store<u32>(iovec, bytes.length - offset, sizeof<usize>());
    if (fd_write(fd, iovec, 1, count) != 0) unreachable();
    offset += load<u32>(count);
  }
}

export function writeStdout(text: string): void {
  write(STDOUT, text);
}

/** What `throw` and failed assertions call (asconfig.json `use`): the reason on stderr, then a trap. */
export function abort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  const reason = message !== null ? message : "abort";
  const file = fileName !== null ? fileName : "?";
  write(STDERR, `${reason} (${file}:${line}:${column})\n`);
  unreachable();
}
