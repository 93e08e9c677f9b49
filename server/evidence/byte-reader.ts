import { EvidenceUnsupportedError } from "./evidence-type.ts";

// Bounds-checked reads for the container walkers: any read past the end is a truncated or garbled file, reported as
// EvidenceUnsupportedError rather than a RangeError (or, worse, a silent undefined from an out-of-range index).

export function malformed(format: string, what: string): EvidenceUnsupportedError {
  return new EvidenceUnsupportedError(`The ${format} file is damaged or incomplete (${what}).`);
}

export class ByteReader {
  readonly bytes: Uint8Array;
  readonly format: string;

  constructor(bytes: Uint8Array, format: string) {
    this.bytes = bytes;
    this.format = format;
  }

  /** Throws unless [start, start + length) lies inside the bytes. */
  need(start: number, length: number, what: string): void {
    if (!Number.isSafeInteger(start) || !Number.isSafeInteger(length) || start < 0 || length < 0) {
      throw malformed(this.format, what);
    }
    if (start + length > this.bytes.length) throw malformed(this.format, what);
  }

  u8(at: number, what: string): number {
    this.need(at, 1, what);
    return this.bytes[at];
  }

  u16be(at: number, what: string): number {
    this.need(at, 2, what);
    return (this.bytes[at] << 8) | this.bytes[at + 1];
  }

  u32be(at: number, what: string): number {
    this.need(at, 4, what);
    return ((this.bytes[at] << 24) | (this.bytes[at + 1] << 16) | (this.bytes[at + 2] << 8) | this.bytes[at + 3]) >>> 0;
  }

  u32le(at: number, what: string): number {
    this.need(at, 4, what);
    return (this.bytes[at] | (this.bytes[at + 1] << 8) | (this.bytes[at + 2] << 16) | (this.bytes[at + 3] << 24)) >>> 0;
  }

  /** A big-endian unsigned integer of 0, 2, 4 or 8 bytes (ISO-BMFF's variable-size fields); past 2^53 is refused. */
  uintbe(at: number, size: number, what: string): number {
    if (size === 0) return 0;
    if (size === 2) return this.u16be(at, what);
    if (size === 4) return this.u32be(at, what);
    if (size === 8) {
      const value = this.u32be(at, what) * 2 ** 32 + this.u32be(at + 4, what);
      if (!Number.isSafeInteger(value)) throw malformed(this.format, what);
      return value;
    }
    throw malformed(this.format, what);
  }

  ascii(at: number, length: number, what: string): string {
    this.need(at, length, what);
    return String.fromCharCode(...this.bytes.subarray(at, at + length));
  }
}

/** The pieces joined into one new array. */
export function concatBytes(pieces: Uint8Array[]): Uint8Array {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const result = new Uint8Array(total);
  let offset = 0;
  for (const piece of pieces) {
    result.set(piece, offset);
    offset += piece.length;
  }
  return result;
}
