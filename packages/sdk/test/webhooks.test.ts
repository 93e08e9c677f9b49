import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { ProtectionClient, verifyWebhook } from "../src/index.ts";

const SECRET = "whsec_test_0123456789abcdef";
const T = 1_795_000_000;
const BODY =
  '{"id":"evt_1","type":"protection.confirmed","data":{"object":{"referenceNumber":"CLM-2026-7KQ3M9XW","note":"café"}}}';
const sign = (t: number | string, body: string | Buffer, secret = SECRET) =>
  createHmac("sha256", secret).update(`${t}.`).update(body).digest("hex");

describe("verifyWebhook", () => {
  it("accepts t=…,v1=… signed over `t.rawBody` with HMAC-SHA256 (string or bytes)", async () => {
    const header = `t=${T},v1=${sign(T, BODY)}`;
    assert.equal(await verifyWebhook(BODY, header, SECRET, { now: T }), true);
    assert.equal(await verifyWebhook(new TextEncoder().encode(BODY), header, SECRET, { now: T }), true);
    assert.equal(
      await verifyWebhook(BODY, header.toUpperCase().replace("T=", "t=").replace("V1=", "v1="), SECRET, { now: T }),
      true,
      "hex in upper case",
    );
  });

  it("rejects a tampered body, a wrong secret, a signature over another timestamp", async () => {
    const header = `t=${T},v1=${sign(T, BODY)}`;
    assert.equal(await verifyWebhook(BODY.replace("café", "cafe"), header, SECRET, { now: T }), false);
    assert.equal(await verifyWebhook(`${BODY} `, header, SECRET, { now: T }), false);
    assert.equal(await verifyWebhook(BODY, header, "whsec_other", { now: T }), false);
    assert.equal(await verifyWebhook(BODY, `t=${T + 1},v1=${sign(T, BODY)}`, SECRET, { now: T }), false);
  });

  it("enforces the tolerance in both directions (default 300 s)", async () => {
    const header = `t=${T},v1=${sign(T, BODY)}`;
    assert.equal(await verifyWebhook(BODY, header, SECRET, { now: T + 300 }), true);
    assert.equal(await verifyWebhook(BODY, header, SECRET, { now: T - 300 }), true);
    assert.equal(await verifyWebhook(BODY, header, SECRET, { now: T + 301 }), false, "too old");
    assert.equal(await verifyWebhook(BODY, header, SECRET, { now: T - 301 }), false, "from the future");
    assert.equal(await verifyWebhook(BODY, header, SECRET, { now: T + 3_000, toleranceSeconds: 3_600 }), true);
    assert.equal(await verifyWebhook(BODY, header, SECRET, { now: new Date((T + 10) * 1000) }), true, "now as a Date");
  });

  it("passes when any v1 of several matches, ignoring v2, v1n and unknown schemes", async () => {
    const good = sign(T, BODY);
    const stale = sign(T, BODY, "whsec_rotated_away");
    assert.equal(
      await verifyWebhook(BODY, `t=${T},v1=${stale},v1=${good}`, SECRET, { now: T }),
      true,
      "old and new secret during rotation",
    );
    assert.equal(
      await verifyWebhook(BODY, `t=${T}, v2=${"0".repeat(64)}, v1n=${good}, v1=${good}`, SECRET, { now: T }),
      true,
    );
    assert.equal(
      await verifyWebhook(BODY, `t=${T},v2=${good},v1n=${good}`, SECRET, { now: T }),
      false,
      "only v1 counts",
    );
    assert.equal(await verifyWebhook(BODY, `t=${T},v1=${stale}`, SECRET, { now: T }), false);
  });

  it("rejects malformed headers", async () => {
    const good = sign(T, BODY);
    for (const header of [
      "",
      null,
      undefined,
      `v1=${good}`,
      `t=${T}`,
      `t=abc,v1=${good}`,
      `t=${T},t=${T},v1=${good}`,
      `t=${T},v1=${good.slice(2)}`,
      `t=${T},v1=${good}zz`,
      `t=-${T},v1=${good}`,
      `t=${T}.5,v1=${good}`,
    ]) {
      assert.equal(await verifyWebhook(BODY, header, SECRET, { now: T }), false, String(header));
    }
    assert.equal(await verifyWebhook(BODY, `t=${T},v1=${good}`, "", { now: T }), false, "empty secret");
  });

  it("client.webhooks.verifyWebhook defaults `now` to the client's clock", async () => {
    const client = new ProtectionClient({ apiKey: "mch_test_x", now: () => T * 1000 });
    const header = `t=${T},v1=${sign(T, BODY)}`;
    assert.equal(await client.webhooks.verifyWebhook(BODY, header, SECRET), true);
    assert.equal(await client.webhooks.verifyWebhook(BODY, header, SECRET, { now: T + 301 }), false);
    const realClock = new ProtectionClient({ apiKey: "mch_test_x" });
    assert.equal(await realClock.webhooks.verifyWebhook(BODY, header, SECRET), false, "T is not now");
  });
});
