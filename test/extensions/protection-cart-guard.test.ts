// The card-testing guard (extensions/protection-cart-guard): the WebAssembly its shopify.extension.toml build command
// makes, run under Node's WASI as Shopify runs a Function (the input JSON on stdin, the output JSON on stdout), with
// inputs shaped by its input query (src/run.graphql, which test/app/shopify-schema.test.ts validates against
// Shopify's published schema). Its JSON parser is property-tested against JSON.parse.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { WASI } from "node:wasi";
import fc from "fast-check";
import { parse as parseToml } from "smol-toml";
import { PROTECTION_PRODUCT_HANDLE } from "../../app/shopify/admin-api.server.ts";

const EXTENSION_DIR = path.resolve(import.meta.dirname, "../../extensions/protection-cart-guard");
const config = parseToml(fs.readFileSync(path.join(EXTENSION_DIR, "shopify.extension.toml"), "utf8")) as {
  extensions: { build: { command: string }; targeting: { target: string; export: string }[] }[];
};
const [extension] = config.extensions;
/** Shopify's limit on a Function's compiled module. */
const MAX_WASM_BYTES = 256 * 1024;

const ALONE =
  "Purchase protection cannot be bought on its own. Add the items you want to protect, or remove the protection.";
const MORE_THAN_ONE = "Purchase protection can be added once per order. Remove the extra protection from your cart.";

type Step = "CART_INTERACTION" | "CHECKOUT_INTERACTION" | "CHECKOUT_COMPLETION";
interface Line {
  quantity: number;
  merchandise: { __typename: "ProductVariant"; product: { handle: string } } | { __typename: "CustomProduct" };
}

const variant = (handle: string, quantity = 1): Line => ({
  quantity,
  merchandise: { __typename: "ProductVariant", product: { handle } },
});
const protection = (quantity = 1) => variant(PROTECTION_PRODUCT_HANDLE, quantity);
/** The input as Shopify sends it for src/run.graphql. */
const input = (lines: Line[], step: Step | null = "CHECKOUT_COMPLETION") => ({
  buyerJourney: { step },
  cart: { lines },
});
/** CartValidationsGenerateRunResult with these messages on the cart. */
const refused = (...messages: string[]) => ({
  operations: [{ validationAdd: { errors: messages.map((message) => ({ message, target: "$.cart" })) } }],
});
const PASSES = { operations: [] };

let workDir: string;
let wasm: WebAssembly.Module;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-cart-guard-"));
  const wasmFile = path.join(workDir, "function.wasm");
  // The toml's build command, as the Shopify CLI runs it from the extension's directory, into a file of the test's.
  // Asynchronously: the compile takes seconds, and a worker whose event loop is held 60 s fails vitest's run.
  const [program, ...args] = extension.build.command.split(" ");
  assert.equal(program, "node");
  await promisify(execFile)(process.execPath, [...args, "--outFile", wasmFile], { cwd: EXTENSION_DIR });
  wasm = new WebAssembly.Module(fs.readFileSync(wasmFile));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

let runs = 0;
/** Runs the Function's export on `stdin` under WASI; `trapped` when it failed (Shopify then reports a Function error). */
function runFunction(stdin: string | Uint8Array): { stdout: string; stderr: string; trapped: boolean } {
  const dir = path.join(workDir, `run-${runs++}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "stdin"), stdin);
  const fds = {
    stdin: fs.openSync(path.join(dir, "stdin"), "r"),
    stdout: fs.openSync(path.join(dir, "stdout"), "w"),
    stderr: fs.openSync(path.join(dir, "stderr"), "w"),
  };
  let trapped = false;
  try {
    const wasi = new WASI({ version: "preview1", ...fds, returnOnExit: true });
    const instance = new WebAssembly.Instance(wasm, wasi.getImportObject() as WebAssembly.Imports);
    wasi.initialize(instance);
    (instance.exports[extension.targeting[0].export] as () => void)();
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    trapped = true;
  } finally {
    for (const fd of Object.values(fds)) fs.closeSync(fd);
  }
  const read = (name: string) => fs.readFileSync(path.join(dir, name), "utf8");
  const result = { stdout: read("stdout"), stderr: read("stderr"), trapped };
  fs.rmSync(dir, { recursive: true });
  return result;
}

const outputFor = (value: unknown) => {
  const { stdout, stderr, trapped } = runFunction(JSON.stringify(value));
  assert.equal(trapped, false, stderr);
  return JSON.parse(stdout) as unknown;
};

/** The rule, written again in TypeScript for the property tests. */
function expected(lines: Line[], step: Step | null) {
  if (step === "CART_INTERACTION") return PASSES;
  const isProtection = (line: Line) =>
    line.merchandise.__typename === "ProductVariant" && line.merchandise.product.handle === PROTECTION_PRODUCT_HANDLE;
  const count = (wanted: boolean) =>
    lines.filter((line) => isProtection(line) === wanted).reduce((sum, line) => sum + line.quantity, 0);
  const messages = [
    ...(count(true) > 0 && count(false) <= 0 ? [ALONE] : []),
    ...(count(true) > 1 ? [MORE_THAN_ONE] : []),
  ];
  return messages.length ? refused(...messages) : PASSES;
}

describe("the module Shopify runs", () => {
  it("imports only WASI, exports the toml's export and its memory, and stays under Shopify's size limit", () => {
    assert.deepEqual(
      extension.targeting.map((target) => ({ ...target })),
      [{ target: "cart.validations.generate.run", input_query: "src/run.graphql", export: "run" }],
    );
    assert.deepEqual(
      [...new Set(WebAssembly.Module.imports(wasm).map((entry) => entry.module))],
      ["wasi_snapshot_preview1"],
    );
    assert.deepEqual(
      WebAssembly.Module.exports(wasm)
        .map((entry) => `${entry.kind} ${entry.name}`)
        .sort(),
      ["function run", "memory memory"],
    );
    const built = fs.readFileSync(path.join(workDir, "function.wasm"));
    assert.ok(built.byteLength < MAX_WASM_BYTES, `${built.byteLength} bytes`);
  });
});

describe("the card-testing guard at checkout", () => {
  it("refuses the protection alone", () => {
    assert.deepEqual(outputFor(input([protection()])), refused(ALONE));
  });

  it("refuses more than one protection, on one line or on two", () => {
    assert.deepEqual(outputFor(input([variant("t-shirt"), protection(2)])), refused(MORE_THAN_ONE));
    assert.deepEqual(outputFor(input([protection(), variant("t-shirt", 3), protection()])), refused(MORE_THAN_ONE));
  });

  it("gives both reasons for two protections and nothing else", () => {
    assert.deepEqual(outputFor(input([protection(2)])), refused(ALONE, MORE_THAN_ONE));
  });

  it("passes goods with one protection, goods alone, a custom product with protection, and an empty cart", () => {
    assert.deepEqual(outputFor(input([variant("t-shirt"), protection()])), PASSES);
    assert.deepEqual(outputFor(input([variant("t-shirt", 5), variant("socks")])), PASSES);
    assert.deepEqual(
      outputFor(input([{ quantity: 1, merchandise: { __typename: "CustomProduct" } }, protection()])),
      PASSES,
    );
    assert.deepEqual(outputFor(input([])), PASSES);
  });

  it("checks every step of checkout, and a journey Shopify leaves unnamed, but leaves the cart alone", () => {
    for (const step of ["CHECKOUT_INTERACTION", "CHECKOUT_COMPLETION", null] as const)
      assert.deepEqual(outputFor(input([protection()], step)), refused(ALONE), String(step));
    assert.deepEqual(outputFor(input([protection(3)], "CART_INTERACTION")), PASSES);
  });

  it("reads unusual but valid JSON: whitespace, escapes, members in any order, unknown members, numbers as exponents", () => {
    const unusual = `\r\n\t {"cart" : {"lines":[ {"merchandise":{"product":{"handle":"purchase\\u002Dprotection","tags":[]},
      "__typename":"ProductVariant","extra":{"a":[1,-0.5e+2,true,false,null,"\\"\\\\\\/\\b\\f\\n\\r\\t\\ud83d\\ude00"]}},
      "quantity":1E0 } ]} , "buyerJourney":{"step":"CART_INTERACTION"},"buyerJourney":{"step":"CHECKOUT_COMPLETION"} } `;
    const { stdout, trapped } = runFunction(unusual);
    assert.equal(trapped, false);
    assert.deepEqual(JSON.parse(stdout), refused(ALONE));
  });

  it("fails on input that is not JSON, writing no output and saying why on stderr", () => {
    for (const bad of [
      "",
      "{",
      '{"cart":}',
      '{"cart":{}} x',
      '{"a":"\u0001"}',
      '{"a":tru}',
      '{"a":01}',
      '{"a":"\\x"}',
    ]) {
      const { stdout, stderr, trapped } = runFunction(bad);
      assert.equal(trapped, true, bad);
      assert.equal(stdout, "", bad);
      assert.match(stderr, /invalid JSON at byte \d+/, bad);
    }
  });
});

describe("properties", () => {
  const step = fc.constantFrom<Step | null>("CART_INTERACTION", "CHECKOUT_INTERACTION", "CHECKOUT_COMPLETION", null);
  const line = fc.oneof(
    fc
      .record({
        quantity: fc.integer({ min: 1, max: 5 }),
        handle: fc.constantFrom(PROTECTION_PRODUCT_HANDLE, "t-shirt"),
      })
      .map(({ quantity, handle }) => variant(handle, quantity)),
    fc
      .integer({ min: 1, max: 5 })
      .map((quantity): Line => ({ quantity, merchandise: { __typename: "CustomProduct" } })),
  );
  const escapeUnits = (char: string) =>
    Array.from(
      { length: char.length },
      (_, index) => `\\u${char.charCodeAt(index).toString(16).padStart(4, "0")}`,
    ).join("");
  /** JSON text of `value` with random whitespace around its tokens and every string character \u-escaped or not. */
  const unusualJson = (value: unknown, seed: number) => {
    let state = seed;
    const coin = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) & 1) === 1;
    const space = () => (coin() ? " \n\t\r".slice(0, state % 4) : "");
    const string = (text: string) =>
      `"${[...text].map((char) => (coin() ? escapeUnits(char) : JSON.stringify(char).slice(1, -1))).join("")}"`;
    const write = (node: unknown): string => {
      if (Array.isArray(node)) return `[${node.map((item) => space() + write(item) + space()).join(",")}]`;
      if (node && typeof node === "object")
        return `{${Object.entries(node)
          .map(([key, item]) => `${space()}${string(key)}${space()}:${space()}${write(item)}${space()}`)
          .join(",")}}`;
      return typeof node === "string" ? string(node) : JSON.stringify(node);
    };
    return space() + write(value) + space();
  };

  it("decides as the rule says, for any cart written in any valid way, with unknown members anywhere", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 6 }),
        step,
        fc.jsonValue(),
        fc.integer(),
        (lines, journey, extra, seed) => {
          const value = { ...input(lines, journey), extra, cart: { lines: lines.map((item) => ({ ...item, extra })) } };
          const { stdout, stderr, trapped } = runFunction(unusualJson(value, seed));
          assert.equal(trapped, false, stderr);
          assert.deepEqual(JSON.parse(stdout), expected(lines, journey));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads a handle exactly as JSON.parse does, whatever its characters (lone surrogates too)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary" }), fc.constant(PROTECTION_PRODUCT_HANDLE)),
        fc.integer(),
        (handle, seed) => {
          const text = unusualJson(input([variant(handle)]), seed);
          const parsedHandle = (JSON.parse(text) as ReturnType<typeof input>).cart.lines[0].merchandise;
          assert.deepEqual(parsedHandle, { __typename: "ProductVariant", product: { handle } });
          const { stdout } = runFunction(text);
          assert.deepEqual(JSON.parse(stdout), handle === PROTECTION_PRODUCT_HANDLE ? refused(ALONE) : PASSES);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("accepts what JSON.parse accepts and fails on what it refuses", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.json().map((text) => text.slice(0, -1)),
        ),
        (text) => {
          let valid = true;
          try {
            JSON.parse(text);
          } catch {
            valid = false;
          }
          const { stdout, trapped } = runFunction(text);
          assert.equal(trapped, !valid, text);
          if (valid) assert.deepEqual(JSON.parse(stdout), PASSES, text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
