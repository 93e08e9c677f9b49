import fc from "fast-check";
import { z } from "zod";
import type { Route } from "../../server/http/route.ts";
import { API_BASE_PATH } from "../../server/http/app.ts";
import {
  anyShortString,
  JsonEntries,
  jsonText,
  preview,
  toWire,
  weirdKey,
  weirdString,
  weirdValue,
  wrongBody,
  type Wire,
} from "./fuzz-json.ts";

// What the API fuzzer sends: per route, requests derived from valid ones — bodies edited field by field, replaced
// whole or broken as bytes, odd path parameters, query strings, media types, idempotency keys and transports.

export interface Fixtures {
  /** Values of each path parameter by name (orderId, endpointId, …): valid ones first, then others' and wrong-kind ids. */
  params: Record<string, string[]>;
  /** Valid bodies of each mutation, by "METHOD /path"; a route without any is fuzzed from {}. */
  bodies: Record<string, object[]>;
  /** Plausible query values by query parameter name. */
  queryValues: Record<string, string[]>;
}

export type Transport = "length" | "chunked" | "short";
export type IdempotencyChoice = { kind: "fresh" | "reused" | "absent" } | { kind: "invalid"; value: string };

export interface FuzzRequest {
  route: Route;
  method: string;
  /** Path and query as sent on the request line (already percent-encoded). */
  target: string;
  body?: { label: string; bytes: Buffer };
  contentType?: string;
  idempotency: IdempotencyChoice;
  transport: Transport;
  /** Which malformed Authorization a "wrong key" request sends (WRONG_AUTHORIZATION). */
  wrongAuthorization: keyof typeof WRONG_AUTHORIZATION;
}

/** Malformed or unknown credentials, from the merchant's real keys. */
export const WRONG_AUTHORIZATION = {
  "unknown secret key": (keys: Keys) => `Bearer ${changeLast(keys.secret)}`,
  "unknown publishable key": (keys: Keys) => `Bearer ${changeLast(keys.publishable)}`,
  "Bearer without a key": () => "Bearer",
  "Basic credentials": () => "Basic dXNlcjpwYXNzd29yZA==",
  "a 4 000-character key": () => `Bearer mch_test_${"k".repeat(4_000)}`,
  "two keys": (keys: Keys) => `Bearer ${keys.secret} ${keys.publishable}`,
  "Latin-1 characters": () => "Bearer mch_test_\u00e9\u00ff\u00e9",
  "a live prefix": (keys: Keys) => `Bearer ${keys.secret.replace("_test_", "_live_")}`,
};
export interface Keys {
  secret: string;
  publishable: string;
}
const changeLast = (key: string) => key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");

/** Every byte outside the unreserved set as %XX: what a client that encodes properly sends. */
const percentEncode = (text: string) =>
  [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");

/** Already-encoded path segments and query values no handler expects. */
const oddEncoded = fc.oneof(
  fc.constantFrom(
    "",
    "%00",
    "a%00b",
    "%",
    "%25",
    "%ZZ",
    "%2F",
    "%2f..%2f",
    "..",
    ".",
    "%2e%2e",
    "%F0%9F%92%A9",
    "%ED%A0%80",
    "%C0%AF",
    "%FF",
    "%E2%80%AE",
    "null",
    "undefined",
    "__proto__",
    "constructor",
    "%20",
    "+",
    "a;b=c",
    "~",
    "%0A",
    "%0D%0A",
    "*",
    "'",
    "%22",
    "-1",
    "1e309",
    "NaN",
  ),
  fc.integer({ min: 256, max: 4_000 }).map((length) => "x".repeat(length)),
  anyShortString.map(percentEncode),
  weirdString.filter((text) => text.length < 300).map(percentEncode),
);

/** A record's own entry (a query key may well be "constructor"). */
const own = <T>(record: Record<string, T>, name: string): T | undefined =>
  Object.hasOwn(record, name) ? record[name] : undefined;

const TEMPLATE_PARAM = /:([A-Za-z]+)/g;

/** The route's path with each parameter either a fixture value or an odd one. */
function pathArbitrary(route: Route, fixtures: Fixtures): fc.Arbitrary<string> {
  const templates = [`${API_BASE_PATH}${route.path}`, ...(route.alsoAt ? [route.alsoAt] : [])];
  const names = [...route.path.matchAll(TEMPLATE_PARAM)].map((match) => match[1]);
  const values = names.map((name) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(...(own(fixtures.params, name) ?? [`${name}_unknown`])).map(percentEncode),
      },
      { weight: 2, arbitrary: oddEncoded },
    ),
  );
  return fc.tuple(fc.constantFrom(...templates), fc.tuple(...values)).map(([template, chosen]) => {
    let next = 0;
    return template.replace(TEMPLATE_PARAM, () => chosen[next++]);
  });
}

const shapeKeys = (schema: unknown) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

function queryArbitrary(route: Route, fixtures: Fixtures): fc.Arbitrary<string> {
  const known = shapeKeys(route.query);
  const key = fc.oneof(
    { weight: 4, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant("limit") },
    { weight: 1, arbitrary: fc.constantFrom(...known, "limit").map((name) => `${name}%5B%5D`) },
    { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "foo", "", "%00", "a%00b", "%") },
  );
  const value = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(own(fixtures.queryValues, name) ?? ["1"])).map(percentEncode) },
      { weight: 2, arbitrary: oddEncoded },
    );
  const pair = key.chain((name) => value(name).map((chosen) => `${name}=${chosen}`));
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant("") },
    { weight: 4, arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.join("&")}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "?",
        "?&&",
        "?=",
        "?%",
        "?limit",
        "?limit=",
        "?%00=%00",
        "?a=b=c",
        "?limit=1&limit=2",
        `?${"a".repeat(4_000)}`,
      ),
    },
  );
}

type Edit = { kind: "drop" | "retype" | "tweak" | "duplicate" | "wrap" | "add"; at: number; key: string; value: Wire };

/** Changes that keep a value's type, so the request gets past type checks to the layers behind them. */
const STRING_TWEAKS: [string, (text: string) => string][] = [
  ["+ NUL", (text) => `${text}\u0000`],
  ["NUL +", (text) => `\u0000${text}`],
  ["+ lone surrogate", (text) => `${text}\ud800`],
  ["+ emoji", (text) => `${text}💥`],
  ["padded", (text) => ` ${text} `],
  ["upper-cased", (text) => text.toUpperCase()],
  ["+ 300 x", (text) => `${text}${"x".repeat(300)}`],
  ["last character cut", (text) => text.slice(0, -1)],
  ["+ %00", (text) => `${text}%00`],
];
const NUMBER_TWEAKS: [string, (value: number) => number][] = [
  ["negated", (value) => -value],
  ["+ 0.5", (value) => value + 0.5],
  ["× 1e6", (value) => value * 1e6],
  ["+ 1", (value) => value + 1],
  ["zeroed", () => 0],
];

function tweak(value: Wire, choice: number): { value: Wire; label: string } | undefined {
  if (typeof value === "string") {
    const [label, change] = STRING_TWEAKS[choice % STRING_TWEAKS.length];
    return { value: change(value), label };
  }
  if (typeof value === "number") {
    const [label, change] = NUMBER_TWEAKS[choice % NUMBER_TWEAKS.length];
    return { value: change(value), label };
  }
  return undefined;
}

/** Every key chain of an object tree: ["order_context"], ["order_context", "order"], … */
function entryPaths(value: Wire, prefix: string[] = []): string[][] {
  if (!(value instanceof JsonEntries)) return [];
  return value.entries.flatMap(([key, child]) => [[...prefix, key], ...entryPaths(child, [...prefix, key])]);
}

function valueAt(value: Wire, path: string[]): Wire | undefined {
  let current: Wire | undefined = value;
  for (const key of path)
    current = current instanceof JsonEntries ? current.entries.find(([name]) => name === key)?.[1] : undefined;
  return current;
}

/** A copy of `value` whose object at `parent` has its entries changed. */
function editEntries(value: Wire, parent: string[], change: (entries: [string, Wire][]) => [string, Wire][]): Wire {
  if (!(value instanceof JsonEntries)) return value;
  if (parent.length === 0) return new JsonEntries(change(value.entries));
  const [head, ...rest] = parent;
  return new JsonEntries(
    value.entries.map(([key, child]) => [key, key === head ? editEntries(child, rest, change) : child]),
  );
}

function applyEdit(body: Wire, edit: Edit): { body: Wire; label: string } {
  const paths = entryPaths(body);
  const shown = preview(jsonText(edit.value), 60);
  if (edit.kind === "add" || paths.length === 0) {
    const parent = paths.length === 0 || edit.at % 3 === 0 ? [] : paths[edit.at % paths.length];
    return {
      body: editEntries(body, parent, (entries) => [...entries, [edit.key, edit.value]]),
      label: `add ${[...parent, edit.key].map((key) => preview(key, 40)).join(".")} = ${shown}`,
    };
  }
  const path = paths[edit.at % paths.length];
  const parent = path.slice(0, -1);
  const name = path[path.length - 1];
  const at = path.map((key) => preview(key, 40)).join(".");
  const each = (entries: [string, Wire][], replace: (entry: [string, Wire]) => [string, Wire][]) =>
    entries.flatMap((entry) => (entry[0] === name ? replace(entry) : [entry]));
  switch (edit.kind) {
    case "tweak": {
      const current = valueAt(body, path);
      const tweaked = current === undefined ? undefined : tweak(current, edit.at);
      if (!tweaked) return applyEdit(body, { ...edit, kind: "retype" });
      return {
        body: editEntries(body, parent, (entries) => each(entries, ([key]) => [[key, tweaked.value]])),
        label: `${at} ${tweaked.label}`,
      };
    }
    case "drop":
      return { body: editEntries(body, parent, (entries) => each(entries, () => [])), label: `drop ${at}` };
    case "retype":
      return {
        body: editEntries(body, parent, (entries) => each(entries, ([key]) => [[key, edit.value]])),
        label: `${at} = ${shown}`,
      };
    case "duplicate":
      return {
        body: editEntries(body, parent, (entries) => each(entries, (entry) => [entry, [name, edit.value]])),
        label: `${at} twice, then ${shown}`,
      };
    case "wrap":
      return {
        body: editEntries(body, parent, (entries) => each(entries, ([key, value]) => [[key, [value]]])),
        label: `${at} wrapped in an array`,
      };
  }
}

const INVALID_UTF8 = [
  [0xff],
  [0xfe],
  [0x80],
  [0xc3, 0x28],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf4, 0x90, 0x80, 0x80],
  [0x00],
];

/** A valid body's text broken as bytes. */
const byteDefect: fc.Arbitrary<{ label: string; apply: (text: string) => Buffer }> = fc.oneof(
  fc.nat().map((at) => ({
    label: "truncated",
    apply: (text: string) => Buffer.from(text).subarray(0, at % Math.max(1, Buffer.byteLength(text))),
  })),
  fc.tuple(fc.nat(), fc.constantFrom(...INVALID_UTF8)).map(([at, bytes]) => ({
    label: `bytes ${bytes.map((byte) => byte.toString(16)).join(" ")} inserted`,
    apply: (text: string) => {
      const whole = Buffer.from(text);
      const cut = at % (whole.length + 1);
      return Buffer.concat([whole.subarray(0, cut), Buffer.from(bytes), whole.subarray(cut)]);
    },
  })),
  fc.constantFrom(
    {
      label: "a byte-order mark first",
      apply: (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
    },
    { label: "UTF-16LE", apply: (text: string) => Buffer.from(text, "utf16le") },
    { label: "trailing garbage", apply: (text: string) => Buffer.from(`${text}garbage`) },
    { label: "two bodies", apply: (text: string) => Buffer.from(text + text) },
    { label: "single quotes", apply: (text: string) => Buffer.from(text.replaceAll('"', "'")) },
    { label: "unquoted keys", apply: (text: string) => Buffer.from(text.replace(/"([^"]+)":/g, "$1:")) },
    { label: "a comment first", apply: (text: string) => Buffer.from(`// note\n${text}`) },
    { label: "a trailing comma", apply: (text: string) => Buffer.from(text.replace(/}$/, ",}")) },
    { label: "a NaN literal", apply: (text: string) => Buffer.from(text.replace(/:([^,{}[\]]+)/, ":NaN")) },
    { label: "empty", apply: () => Buffer.alloc(0) },
    { label: "whitespace only", apply: () => Buffer.from(" \n\t\r ") },
  ),
);

function bodyArbitrary(route: Route, fixtures: Fixtures): fc.Arbitrary<{ label: string; bytes: Buffer }> {
  const bases = (fixtures.bodies[`${route.method} ${route.path}`] ?? [{}]).map(toWire);
  const base = fc.constantFrom(...bases);
  const known = shapeKeys(route.body);
  const key = known.length > 0 ? fc.oneof(weirdKey, fc.constantFrom(...known)) : weirdKey;
  const edit: fc.Arbitrary<Edit> = fc.record({
    kind: fc.constantFrom("drop", "retype", "retype", "tweak", "tweak", "duplicate", "wrap", "add"),
    at: fc.nat(),
    key,
    value: weirdValue,
  });
  const text = (body: Wire, label: string) => ({ label, bytes: Buffer.from(jsonText(body)) });
  return fc.oneof(
    { weight: 2, arbitrary: base.map((body) => text(body, "valid body")) },
    {
      weight: 12,
      arbitrary: fc.tuple(base, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([start, edits]) => {
        let body: Wire = start;
        const labels = edits.map((one) => {
          const edited = applyEdit(body, one);
          body = edited.body;
          return edited.label;
        });
        return text(body, labels.join("; "));
      }),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          wrongBody,
          base.map((body) => [body]),
        )
        .map((body) => text(body, "whole body replaced")),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(base, byteDefect)
        .map(([body, defect]) => ({ label: `valid body, ${defect.label}`, bytes: defect.apply(jsonText(body)) })),
    },
  );
}

const contentType = fc.oneof(
  { weight: 12, arbitrary: fc.constant<string | undefined>("application/json") },
  {
    weight: 3,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-16",
      "application/json; charset=iso-8859-1",
      "application/merge-patch+json",
      "APPLICATION/JSON",
      "application/jsonx",
      "*/*",
      "",
      ";;;",
      "application/json, text/plain",
      "text/json",
      "application/xml",
    ),
  },
);

const idempotency: fc.Arbitrary<IdempotencyChoice> = fc.oneof(
  { weight: 14, arbitrary: fc.constant<IdempotencyChoice>({ kind: "fresh" }) },
  { weight: 2, arbitrary: fc.constant<IdempotencyChoice>({ kind: "reused" }) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        "short",
        "",
        "a".repeat(15),
        "k".repeat(256),
        "has space 1234567",
        "dots.are.not.allowed",
        "tab\tinside\tkey12345",
        "\u00fcn\u00efc\u00f6d\u00e9-key-123456",
        "%00%00%00%00%00%00",
        "x".repeat(6_000),
      )
      .map((value): IdempotencyChoice => ({ kind: "invalid", value })),
  },
  { weight: 1, arbitrary: fc.constant<IdempotencyChoice>({ kind: "absent" }) },
);

const transport = fc.oneof(
  { weight: 18, arbitrary: fc.constant<Transport>("length") },
  { weight: 1, arbitrary: fc.constant<Transport>("chunked") },
  { weight: 1, arbitrary: fc.constant<Transport>("short") },
);

/** Requests for one route: a GET fuzzes its path and query, a mutation also its body and headers. */
export function requestArbitrary(route: Route, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const wrongAuthorization = fc.constantFrom(
    ...(Object.keys(WRONG_AUTHORIZATION) as FuzzRequest["wrongAuthorization"][]),
  );
  const mutation = route.method !== "GET";
  return fc.record({
    route: fc.constant(route),
    method: fc.constant(route.method),
    target: fc
      .tuple(pathArbitrary(route, fixtures), queryArbitrary(route, fixtures))
      .map(([path, query]) => path + query),
    body: mutation ? bodyArbitrary(route, fixtures) : fc.constant(undefined),
    contentType: mutation ? contentType : fc.constant(undefined),
    idempotency,
    transport: mutation ? transport : fc.constant<Transport>("length"),
    wrongAuthorization,
  });
}
