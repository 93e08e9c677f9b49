import fc from "fast-check";

// JSON the fuzzer can write, including what JSON.stringify cannot: number literals beyond a double (1e309),
// duplicate keys, nesting deeper than a recursive serializer survives.

/** JSON text sent verbatim. */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** An object as its entries, so one key can appear twice. */
export class JsonEntries {
  readonly entries: [string, Wire][];
  constructor(entries: [string, Wire][]) {
    this.entries = entries;
  }
}

export type Wire = null | boolean | number | string | Wire[] | JsonEntries | RawJson;

/** A parsed JSON value (the valid bodies the fuzzer starts from) as a Wire tree. */
export function toWire(value: unknown): Wire {
  if (Array.isArray(value)) return value.map(toWire);
  if (value !== null && typeof value === "object")
    return new JsonEntries(Object.entries(value).map(([key, child]) => [key, toWire(child)]));
  return value as Wire;
}

export function jsonText(value: Wire): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof JsonEntries)
    return `{${value.entries.map(([key, child]) => `${JSON.stringify(key)}:${jsonText(child)}`).join(",")}}`;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(",")}]`;
  // NaN and ±Infinity become null, as JSON.stringify writes them.
  return JSON.stringify(value) ?? "null";
}

/** A short, printable rendering for failure reports. */
export function preview(text: string, max = 120): string {
  const escaped = JSON.stringify(text.length > max ? text.slice(0, max) : text).slice(1, -1);
  return text.length > max ? `${escaped}… (${text.length} chars)` : escaped;
}

/** One UTF-16 unit of anything: any code point, or half of a surrogate pair on its own. */
const anyUnit = fc.oneof(
  { weight: 5, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
);

export const anyShortString = fc.string({ unit: anyUnit, maxLength: 24 });

const SPECIAL_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "💥",
  "\u202eevil",
  "\ufeff",
  "\u200b",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-1",
  "1e309",
  "0x10",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "' OR '1'='1",
  "%00",
  "../../etc/passwd",
  "<script>alert(1)</script>",
  "\\",
  '"',
  "\n\r\t",
  "2026-02-30T00:00:00Z",
  "-271821-04-20T00:00:00Z",
  "qt_\u0000",
  "mer_",
];

const longString = fc
  .tuple(fc.constantFrom("x", "\u0000", "é", "💥", "\ud800"), fc.integer({ min: 256, max: 70_000 }))
  .map(([unit, count]) => unit.repeat(count));

export const weirdString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 4, arbitrary: anyShortString },
  { weight: 1, arbitrary: anyShortString.map((text) => `${text}\u0000`) },
  { weight: 1, arbitrary: longString },
);

export const weirdNumber: fc.Arbitrary<Wire> = fc.oneof(
  fc.constantFrom(0, -1, 1.5, -0.5, 2 ** 31, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1e21, 1e308, -1e308, 5e-324),
  fc.integer(),
  fc.double(),
  fc
    .constantFrom(
      "1e309",
      "-1e309",
      "99999999999999999999999999",
      "-0",
      "1E400",
      "0.1e-400",
      "1.0",
      "1e2",
      "100000000000000000000000000000e-25",
    )
    .map((text) => new RawJson(text)),
);

/** `[[[…]]]` or `{"a":{"a":…}}`, up to the body size limit and past it. */
const deepNesting: fc.Arbitrary<Wire> = fc.oneof(
  fc.integer({ min: 100, max: 33_000 }).map((depth) => new RawJson(`${"[".repeat(depth)}${"]".repeat(depth)}`)),
  fc.integer({ min: 100, max: 13_000 }).map((depth) => new RawJson(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`)),
);

export const weirdKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "",
    "\u0000",
    "toString",
    "hasOwnProperty",
    "a.b",
    "\ud800",
    "k".repeat(1_000),
  ),
  anyShortString,
);

export const weirdValue: fc.Arbitrary<Wire> = fc.oneof(
  { weight: 5, arbitrary: weirdString },
  { weight: 3, arbitrary: weirdNumber },
  { weight: 1, arbitrary: fc.constantFrom<Wire>(true, false, null, [], new JsonEntries([])) },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: fc.array(weirdString, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map(toWire) },
  {
    weight: 1,
    arbitrary: fc.array(fc.tuple(weirdKey, weirdString), { maxLength: 3 }).map((entries) => new JsonEntries(entries)),
  },
);

/** Whole bodies that are not the object a route expects. */
export const wrongBody: fc.Arbitrary<Wire> = fc.oneof(
  fc.constantFrom<Wire>([], null, true, 0, "body", new JsonEntries([])),
  deepNesting,
  weirdValue,
  fc
    .integer({ min: 100, max: 5_000 })
    .map((count) => new JsonEntries(Array.from({ length: count }, (_, i): [string, Wire] => [`k${i}`, i]))),
);
