import { describe, it } from "vitest";
import assert from "node:assert/strict";
import { displayFileName } from "./claims.ts";
import { COVERED_REASONS, reasonName } from "./disclosure.ts";

describe("displayFileName", () => {
  it("keeps the buyer's name without folders, control or bidi characters, at most 200 characters", () => {
    assert.equal(displayFileName("box.png", "png", 0), "box.png");
    assert.equal(displayFileName("C:\\Users\\ann\\photo.jpg", "jpg", 0), "photo.jpg");
    assert.equal(displayFileName("../../etc/passwd", "pdf", 0), "passwd");
    assert.equal(displayFileName("in\u202evoice\u0000.pdf", "pdf", 0), "invoice.pdf");
    assert.equal(displayFileName('say "hi".png', "png", 0), "say hi.png");
    assert.equal([...displayFileName(`${"é".repeat(300)}.jpg`, "jpg", 0)].length, 200);
  });

  it("names a file whose name is empty or only a folder after its position and type", () => {
    assert.equal(displayFileName("", "png", 0), "evidence-1.png");
    assert.equal(displayFileName("..", "pdf", 2), "evidence-3.pdf");
    assert.equal(displayFileName("\u0001\u0002", "jpg", 4), "evidence-5.jpg");
  });
});

describe("reasonName", () => {
  it("names each of the 12 covered reasons from the public rulebook", () => {
    const names = COVERED_REASONS.map(reasonName);
    assert.equal(new Set(names).size, 12);
    for (const [index, name] of names.entries()) assert.notEqual(name, COVERED_REASONS[index]);
  });
});
