import { test } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { signatureHeader } from "./signer.ts";
import { verifyOutcome } from "../../test/support/webhook-verify.ts";

const vectors = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, "../../test/vectors/webhook-signatures.json"), "utf8"),
);

test("the signer produces every header of test/vectors/webhook-signatures.json byte for byte", () => {
  assert.ok(vectors.signing.length >= 7);
  for (const vector of vectors.signing) {
    assert.equal(Buffer.from(vector.raw_body, "utf8").toString("hex"), vector.raw_body_utf8_hex, vector.name);
    assert.equal(signatureHeader(vector.secrets, vector.timestamp, vector.raw_body), vector.header, vector.name);
  }
  assert.ok(
    vectors.signing.some((vector: { header: string }) => vector.header.split("v1=").length === 3),
    "a multi-signature header",
  );
});

test("the TypeScript SDK's verifier gives each verify vector's outcome, accepting exactly the valid ones", async () => {
  for (const vector of vectors.verify) {
    const outcome = await verifyOutcome(
      vector.header,
      vector.raw_body,
      vector.secret,
      vector.now,
      vectors.tolerance_seconds,
    );
    assert.equal(outcome, vector.expected, vector.name);
    assert.equal(outcome === "valid", vector.valid, vector.name);
  }
  const outcomes = new Set(vectors.verify.map((vector: { expected: string }) => vector.expected));
  assert.deepEqual([...outcomes].sort(), ["expired", "future", "malformed", "tampered", "valid"]);
});
