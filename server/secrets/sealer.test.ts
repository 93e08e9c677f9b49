import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHash, randomBytes } from "node:crypto";
import { createSealer, loadEncryptionKey } from "./sealer.ts";

describe("sealer", () => {
  it("round-trips, hides the plaintext, and refuses tampered or foreign boxes", () => {
    const sealer = createSealer(randomBytes(32));
    const sealed = sealer.seal('{"X-Service-Quote-Token":"secret-token"}');
    assert.ok(!sealed.includes("secret-token"));
    assert.equal(sealer.open(sealed), '{"X-Service-Quote-Token":"secret-token"}');
    assert.notEqual(sealer.seal("same"), sealer.seal("same"), "a fresh IV each time");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("tampered").toString("base64url");
    assert.throws(() => sealer.open(parts.join(".")));
    assert.throws(() => createSealer(randomBytes(32)).open(sealed));
  });

  // What earlier versions wrote must stay readable and findable: these were made outside the sealer (node:crypto,
  // AES-256-GCM under the key 00 01 … 1f with the IV 00 01 … 0b; HMAC-SHA256 under the key's HKDF-SHA256 derivation
  // for "purchase-protection/lookup-hash"), so a change of the box's format or of the lookup key's derivation fails here
  // rather than on the rows already stored.
  it("opens a box in the stored format and hashes as the stored lookups were hashed (fixed vectors)", () => {
    const sealer = createSealer(Buffer.from(Array.from({ length: 32 }, (_, index) => index)));
    assert.equal(sealer.open("v1.AAECAwQFBgcICQoL.B9C4oMnfA-iGCqRRfSJ3EA.Jma3W6Cdo3b9LfKl0oYV"), "ada@example.com");
    assert.equal(sealer.hash("ada@example.com"), "06ae4cabeb3faf0621cab2d0cbafcb82b1f052861d03944f79ffc3f383a42670");
    assert.match(sealer.seal("ada@example.com"), /^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]{20}$/, "version, IV, tag, text");
  });

  it("hashes for lookups: the same text, the same hash; another key, another hash; never the plaintext", () => {
    const key = randomBytes(32);
    const hash = createSealer(key).hash("ada@example.com");
    assert.match(hash, /^[0-9a-f]{64}$/);
    assert.equal(createSealer(Buffer.from(key)).hash("ada@example.com"), hash);
    assert.notEqual(createSealer(key).hash("bob@example.com"), hash);
    assert.notEqual(createSealer(randomBytes(32)).hash("ada@example.com"), hash);
    assert.notEqual(createHash("sha256").update("ada@example.com").digest("hex"), hash, "keyed, not a bare SHA-256");
  });

  it("creates the embedded key file once, with mode 0600, and reuses it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-key-"));
    try {
      const first = loadEncryptionKey(undefined, dir);
      assert.equal(first.created, true);
      assert.equal(fs.statSync(first.source).mode & 0o777, 0o600);
      const second = loadEncryptionKey(undefined, dir);
      assert.equal(second.created, false);
      assert.deepEqual(second.key, first.key);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes ENCRYPTION_KEY when set and rejects a key of the wrong size", () => {
    const key = randomBytes(32);
    assert.deepEqual(loadEncryptionKey(key.toString("base64"), "/nonexistent").key, key);
    assert.throws(() => loadEncryptionKey(randomBytes(16).toString("base64"), "/nonexistent"), /32 bytes/);
  });
});
