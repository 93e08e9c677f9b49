import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { displayFileName } from "./claims.ts";
import { COVERED_REASONS, reasonName } from "./disclosure.ts";

describe("displayFileName", () => {
  it("keeps the buyer's name without folders, control or bidi characters, at most 200 characters", () => {
    assert.equal(displayFileName("box.png", "image/png", 0), "box.png");
    assert.equal(displayFileName("C:\\Users\\ann\\photo.jpg", "image/jpeg", 0), "photo.jpg");
    assert.equal(displayFileName("in\u202evoice\u0000.pdf", "application/pdf", 0), "invoice.pdf");
    assert.equal(displayFileName('say "hi".png', "image/png", 0), "say hi.png");
    const long = displayFileName(`${"é".repeat(300)}.jpg`, "image/jpeg", 0);
    assert.equal([...long].length, 200);
    assert.ok(long.endsWith("é.jpg"), "the extension survives the cut");
  });

  it("gives the name the extension of the type the bytes are (issue 26): no download opens as another type", () => {
    assert.equal(displayFileName("invoice.html", "image/png", 0), "invoice.png");
    assert.equal(displayFileName("receipt.PDF.exe", "application/pdf", 0), "receipt.PDF.pdf");
    assert.equal(displayFileName("../../etc/passwd", "application/pdf", 0), "passwd.pdf");
    assert.equal(displayFileName(".htaccess", "image/webp", 0), ".htaccess.webp");
    // Another spelling of the same type's extension is the buyer's and stays.
    assert.equal(displayFileName("photo.JPEG", "image/jpeg", 0), "photo.JPEG");
    assert.equal(displayFileName("photo.heif", "image/heic", 0), "photo.heif");
    assert.equal(displayFileName("photo.jpg", "image/heic", 0), "photo.heic");
  });

  it("names a file whose name is empty or only a folder after its position and type", () => {
    assert.equal(displayFileName("", "image/png", 0), "evidence-1.png");
    assert.equal(displayFileName("..", "application/pdf", 2), "evidence-3.pdf");
    assert.equal(displayFileName("\u0001\u0002", "image/jpeg", 4), "evidence-5.jpg");
  });
});

describe("reasonName", () => {
  it("names each of the 12 covered reasons from the public rulebook", () => {
    const names = COVERED_REASONS.map(reasonName);
    assert.equal(new Set(names).size, 12);
    for (const [index, name] of names.entries()) assert.notEqual(name, COVERED_REASONS[index]);
  });
});
