// One Admin GraphQL operation per file in app/shopify/admin/, the file named after the operation (the fake Admin API
// in test/support/shopify.ts answers by that name, and the app's calls are asserted by it); none the fake leaves out.
import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";

const ADMIN_DIR = path.resolve(import.meta.dirname, "../../app/shopify/admin");
const FAKE_ADMIN_API = path.resolve(import.meta.dirname, "../support/shopify.ts");
/** `ProtectionProductSet` → `protection-product-set`. */
const kebab = (name: string) => name.replace(/(?<!^)([A-Z])/g, "-$1").toLowerCase();

describe("Admin API operations", () => {
  it("each file holds one named operation and is named after it", () => {
    const files = fs.readdirSync(ADMIN_DIR).filter((file) => file.endsWith(".ts") && file !== "graphql.ts");
    assert.ok(files.length > 0);
    for (const file of files) {
      const names = [
        ...fs.readFileSync(path.join(ADMIN_DIR, file), "utf8").matchAll(/`\s*(?:query|mutation)\s+(\w+)/g),
      ].map((match) => match[1]);
      assert.equal(names.length, 1, `${file} holds one operation`);
      assert.equal(`${kebab(names[0])}.ts`, file);
    }
  });

  it("the fake Admin API answers every operation (so each is exercised against Shopify's documented shapes)", () => {
    const fake = fs.readFileSync(FAKE_ADMIN_API, "utf8");
    for (const file of fs.readdirSync(ADMIN_DIR).filter((name) => name.endsWith(".ts") && name !== "graphql.ts")) {
      const [, name] = /`\s*(?:query|mutation)\s+(\w+)/.exec(fs.readFileSync(path.join(ADMIN_DIR, file), "utf8"))!;
      assert.ok(fake.includes(`case "${name}":`), `test/support/shopify.ts answers ${name}`);
    }
  });
});
