// The shared vectors of test/vectors/ (the PHP SDK and the server run the same files).
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { canonicalJson, ServiceValidationError, verifyWebhook } from "../src/index.ts";

const VECTORS = path.resolve(import.meta.dirname, "../../../test/vectors");
const load = (name: string) => JSON.parse(fs.readFileSync(path.join(VECTORS, name), "utf8"));
const double = (hex: string) => Buffer.from(hex, "hex").readDoubleBE(0);

describe("vectors: canonical-json.json", () => {
  const vectors = load("canonical-json.json") as {
    cases: { name: string; input_json: string; expected: string; expected_utf8_hex: string }[];
    numbers: { ieee754_hex: string; expected: string }[];
    invalid_numbers: { ieee754_hex: string; name: string }[];
  };

  it("has the RFC 8785 number, unicode and key-order cases", () => {
    const names = vectors.cases.map((c) => c.name);
    for (const name of [
      "rfc8785-3.2.2-sample",
      "rfc8785-3.2.3-key-order",
      "string-control-escapes",
      "string-non-ascii-literal",
      "numbers-exponents",
    ]) {
      assert.ok(names.includes(name), name);
    }
    assert.ok(vectors.numbers.length >= 20);
  });

  for (const vector of vectors.cases) {
    it(`case ${vector.name}: exact bytes`, () => {
      const output = canonicalJson(JSON.parse(vector.input_json));
      assert.equal(output, vector.expected);
      assert.equal(Buffer.from(output, "utf8").toString("hex"), vector.expected_utf8_hex);
    });
  }

  it("numbers: ECMAScript shortest round-trip form of each IEEE 754 double", () => {
    for (const { ieee754_hex, expected } of vectors.numbers)
      assert.equal(canonicalJson(double(ieee754_hex)), expected, ieee754_hex);
    for (const { ieee754_hex, name } of vectors.invalid_numbers)
      assert.throws(() => canonicalJson([double(ieee754_hex)]), ServiceValidationError, name);
  });
});

describe("vectors: reference-numbers.json", () => {
  const vectors = load("reference-numbers.json") as {
    pattern: string;
    valid: string[];
    invalid: { value: string; why: string }[];
  };
  it("the documented pattern accepts every valid and no invalid reference", () => {
    const pattern = new RegExp(vectors.pattern);
    for (const value of vectors.valid) assert.match(value, pattern);
    for (const { value, why } of vectors.invalid) assert.doesNotMatch(value, pattern, why);
  });
});

describe("vectors: webhook-signatures.json", () => {
  const vectors = load("webhook-signatures.json") as {
    tolerance_seconds: number;
    signing: {
      name: string;
      secrets: string[];
      timestamp: number;
      raw_body: string;
      raw_body_utf8_hex: string;
      header: string;
    }[];
    verify: {
      name: string;
      secret: string;
      raw_body: string;
      raw_body_utf8_hex: string;
      header: string;
      now: number;
      valid: boolean;
      tolerance_seconds?: number;
    }[];
  };
  const options = (now: number, tolerance?: number) => ({
    now,
    toleranceSeconds: tolerance ?? vectors.tolerance_seconds,
  });

  for (const vector of vectors.verify) {
    it(`verify ${vector.name}: ${vector.valid ? "accepted" : "rejected"}`, async () => {
      const { secret, header } = vector;
      assert.equal(
        await verifyWebhook(vector.raw_body, header, secret, options(vector.now, vector.tolerance_seconds)),
        vector.valid,
        "string body",
      );
      const bytes = Buffer.from(vector.raw_body_utf8_hex, "hex");
      assert.equal(
        await verifyWebhook(bytes, header, secret, options(vector.now, vector.tolerance_seconds)),
        vector.valid,
        "byte body",
      );
    });
  }

  it("every signing vector's header verifies under each of its secrets", async () => {
    for (const vector of vectors.signing) {
      for (const secret of vector.secrets) {
        assert.equal(
          await verifyWebhook(vector.raw_body, vector.header, secret, options(vector.timestamp)),
          true,
          `${vector.name} / ${secret}`,
        );
      }
    }
  });
});
