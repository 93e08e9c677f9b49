// A small JSON parser (RFC 8259) into a tree the guard reads. Hand-written because the AssemblyScript JSON libraries
// on npm rewrite the source with compiler transforms or are unmaintained; this one does only what the input needs.
// Invalid input throws (the Function fails: Shopify's input is always valid JSON). Property-tested from Node against
// JSON.parse (test/extensions/protection-cart-guard.test.ts).

export enum Kind {
  Null,
  Boolean,
  Number,
  String,
  Array,
  Object,
}

export class JsonValue {
  kind: Kind = Kind.Null;
  boolean: bool = false;
  number: f64 = 0;
  string: string = "";
  items: JsonValue[] = [];
  keys: string[] = [];

  /** The member named `key` (the last one, as JSON.parse keeps), or null when absent or this is no object. */
  field(key: string): JsonValue {
    for (let index = this.keys.length - 1; index >= 0; index--) {
      if (this.keys[index] == key) return this.items[index];
    }
    return MISSING;
  }
}

/** What `field` returns for a member that is not there: a null, so a chain of reads needs no checks. */
const MISSING = new JsonValue();

export function parseJson(bytes: Uint8Array): JsonValue {
  const parser = new Parser(bytes);
  parser.skipWhitespace();
  const value = parser.value();
  parser.skipWhitespace();
  if (parser.position != bytes.length) parser.fail("unexpected data after the value");
  return value;
}

class Parser {
  position: i32 = 0;
  constructor(private bytes: Uint8Array) {}

  fail(reason: string): void {
    throw new Error(`invalid JSON at byte ${this.position}: ${reason}`);
  }

  peek(): i32 {
    return this.position < this.bytes.length ? <i32>this.bytes[this.position] : -1;
  }

  next(): i32 {
    const byte = this.peek();
    if (byte < 0) this.fail("unexpected end");
    this.position++;
    return byte;
  }

  expect(byte: i32): void {
    if (this.next() != byte) {
      this.position--;
      this.fail(`expected '${String.fromCharCode(byte)}'`);
    }
  }

  skipWhitespace(): void {
    while (true) {
      const byte = this.peek();
      if (byte != 0x20 && byte != 0x09 && byte != 0x0a && byte != 0x0d) return;
      this.position++;
    }
  }

  value(): JsonValue {
    const byte = this.peek();
    if (byte == 0x7b) return this.container(Kind.Object, 0x7d);
    if (byte == 0x5b) return this.container(Kind.Array, 0x5d);
    const value = new JsonValue();
    if (byte == 0x22) {
      value.kind = Kind.String;
      value.string = this.string();
    } else if (byte == 0x2d || (byte >= 0x30 && byte <= 0x39)) {
      value.kind = Kind.Number;
      value.number = this.number();
    } else if (this.literal("true")) {
      value.kind = Kind.Boolean;
      value.boolean = true;
    } else if (this.literal("false")) {
      value.kind = Kind.Boolean;
    } else if (!this.literal("null")) {
      this.fail("expected a value");
    }
    return value;
  }

  literal(word: string): bool {
    for (let index = 0; index < word.length; index++) {
      if (this.peek() != word.charCodeAt(index)) {
        if (index > 0) this.fail(`expected '${word}'`);
        return false;
      }
      this.position++;
    }
    return true;
  }

  /** An object (members: a name, a colon, a value) or an array (values), comma-separated; `value` saw the opener. */
  container(kind: Kind, close: i32): JsonValue {
    const value = new JsonValue();
    value.kind = kind;
    this.position++;
    this.skipWhitespace();
    if (this.peek() == close) {
      this.position++;
      return value;
    }
    while (true) {
      this.skipWhitespace();
      if (kind == Kind.Object) {
        if (this.peek() != 0x22) this.fail("expected a member name");
        value.keys.push(this.string());
        this.skipWhitespace();
        this.expect(0x3a);
        this.skipWhitespace();
      }
      value.items.push(this.value());
      this.skipWhitespace();
      if (this.next() == close) return value;
      this.position--;
      this.expect(0x2c);
    }
  }

  /** A string: runs of raw UTF-8 decoded at once, escapes as UTF-16 code units (a lone surrogate kept, as JSON.parse keeps it). */
  string(): string {
    this.expect(0x22);
    let text = "";
    let runStart = this.position;
    while (true) {
      const byte = this.next();
      if (byte == 0x22 || byte == 0x5c) {
        text += String.UTF8.decodeUnsafe(this.bytes.dataStart + runStart, this.position - 1 - runStart);
        if (byte == 0x22) return text;
        text += this.escape();
        runStart = this.position;
      } else if (byte < 0x20) {
        this.position--;
        this.fail("control character in a string");
      }
    }
  }

  escape(): string {
    const byte = this.next();
    if (byte == 0x22 || byte == 0x5c || byte == 0x2f) return String.fromCharCode(byte);
    if (byte == 0x62) return "\b";
    if (byte == 0x66) return "\f";
    if (byte == 0x6e) return "\n";
    if (byte == 0x72) return "\r";
    if (byte == 0x74) return "\t";
    if (byte != 0x75) {
      this.position--;
      this.fail("unknown escape");
    }
    let unit = 0;
    for (let digit = 0; digit < 4; digit++) {
      const hex = this.next();
      unit <<= 4;
      if (hex >= 0x30 && hex <= 0x39) unit |= hex - 0x30;
      else if (hex >= 0x61 && hex <= 0x66) unit |= hex - 0x57;
      else if (hex >= 0x41 && hex <= 0x46) unit |= hex - 0x37;
      else {
        this.position--;
        this.fail("expected a hex digit");
      }
    }
    return String.fromCharCode(unit);
  }

  /** -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?, read by parseFloat once checked. */
  number(): f64 {
    const start = this.position;
    if (this.peek() == 0x2d) this.position++;
    if (this.peek() == 0x30) this.position++;
    else this.digits();
    if (this.peek() == 0x2e) {
      this.position++;
      this.digits();
    }
    if (this.peek() == 0x65 || this.peek() == 0x45) {
      this.position++;
      if (this.peek() == 0x2b || this.peek() == 0x2d) this.position++;
      this.digits();
    }
    return parseFloat(String.UTF8.decodeUnsafe(this.bytes.dataStart + start, this.position - start));
  }

  digits(): void {
    const start = this.position;
    while (this.peek() >= 0x30 && this.peek() <= 0x39) this.position++;
    if (this.position == start) this.fail("expected a digit");
  }
}
