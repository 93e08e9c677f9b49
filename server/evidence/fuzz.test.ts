import { describe, it } from "vitest";
import assert from "node:assert/strict";
import fc from "fast-check";
import { stripImageMetadata } from "./strip-metadata.ts";
import { sniffEvidenceType } from "./sniff.ts";
import { EVIDENCE_CONTENT_TYPES, EvidenceUnsupportedError, type EvidenceContentType } from "./evidence-type.ts";
import {
  heicWithMetadata,
  jpegWithMetadata,
  PDF,
  pngWithMetadata,
  webpWithMetadata,
} from "../../test/support/evidence-images.ts";

// Damaged, truncated and random bytes must end in EvidenceUnsupportedError (the 422 the claims routes answer) or a
// result — never a RangeError, a TypeError or a hang.

const SAMPLES: Record<EvidenceContentType, Uint8Array> = {
  "image/jpeg": jpegWithMetadata(),
  "image/png": pngWithMetadata(),
  "image/webp": webpWithMetadata(),
  "image/heic": heicWithMetadata().bytes,
  "application/pdf": PDF,
};

/** A valid sample with some of: a cut, bytes overwritten, bytes inserted. */
const damaged = (sample: Uint8Array) =>
  fc
    .record({
      cut: fc.option(fc.nat({ max: sample.length })),
      writes: fc.array(fc.tuple(fc.nat({ max: sample.length - 1 }), fc.integer({ min: 0, max: 255 })), {
        maxLength: 6,
      }),
      insert: fc.option(fc.tuple(fc.nat({ max: sample.length }), fc.uint8Array({ minLength: 1, maxLength: 12 }))),
    })
    .map(({ cut, writes, insert }) => {
      let bytes = sample.slice();
      for (const [at, value] of writes) bytes[at] = value;
      if (insert) {
        const [at, extra] = insert;
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...extra, ...bytes.subarray(at)]);
      }
      return cut === null ? bytes : bytes.subarray(0, cut);
    });

function stripsOrRefuses(bytes: Uint8Array, contentType: EvidenceContentType): Uint8Array | undefined {
  try {
    const output = stripImageMetadata(bytes, contentType);
    assert.ok(output instanceof Uint8Array);
    return output;
  } catch (error) {
    if (error instanceof EvidenceUnsupportedError) {
      assert.equal(error.code, "evidence_type_unsupported");
      return undefined;
    }
    throw error;
  }
}

describe("evidence parsing under damaged input", () => {
  for (const contentType of EVIDENCE_CONTENT_TYPES) {
    it(`${contentType}: damaged files are stripped or refused with EvidenceUnsupportedError; a stripped file strips to itself`, () => {
      fc.assert(
        fc.property(damaged(SAMPLES[contentType]), (bytes) => {
          const output = stripsOrRefuses(bytes, contentType);
          if (output && contentType !== "image/heic") {
            assert.deepEqual(stripImageMetadata(output, contentType), output);
          }
        }),
        { numRuns: 400 },
      );
    });

    it(`${contentType}: random bytes are stripped or refused with EvidenceUnsupportedError`, () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
          stripsOrRefuses(bytes, contentType);
        }),
        { numRuns: 400 },
      );
    });
  }

  it("sniffing never throws, whatever the bytes", () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), ...Object.values(SAMPLES).map(damaged)), (bytes) => {
        const type = sniffEvidenceType(bytes);
        assert.ok(type === undefined || EVIDENCE_CONTENT_TYPES.includes(type.contentType));
      }),
      { numRuns: 1000 },
    );
  });

  it("an unknown content type is refused the same way", () => {
    assert.throws(
      () => stripImageMetadata(SAMPLES["image/png"], "image/gif" as EvidenceContentType),
      EvidenceUnsupportedError,
    );
  });
});
