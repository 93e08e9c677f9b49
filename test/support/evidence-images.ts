// Test images for the evidence tests (server/evidence/*.test.ts, test/evidence, test/api, test/ops): small real images
// encoded by Chromium's canvas (the bytes below), and builders that add metadata the way cameras and editors write it —
// Exif with a GPS position, XMP, IPTC, comments — plus a HEIC container assembled box by box. Test fixtures, kept out
// of the production tree.
import { crc32, deflateSync } from "node:zlib";

const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, "base64"));

/** 8 × 4 px, left half red, right half blue: JFIF APP0, ICC APP2, baseline JPEG (Chromium's canvas.toDataURL). */
export const PLAIN_JPEG = fromBase64(
  "/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAEAAgDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAYEAEAAwEAAAAAAAAAAAAAAAAABUOBwf/EABUBAQEAAAAAAAAAAAAAAAAAAAEG/8QAGxEAAAcBAAAAAAAAAAAAAAAAAAEDBjWBsoL/2gAMAwEAAhEDEQA/AJ9JV7wBZNqMS60YHJJK1kh//9k=",
);

/** The same picture as lossy WebP: VP8X (ICC flag), ICCP, VP8. */
export const PLAIN_WEBP = fromBase64(
  "UklGRjACAABXRUJQVlA4WAoAAAAgAAAABwAAAwAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDggQgAAAPACAJ0BKggABAABQCYlqAJ0ugFAA/ACu/9wABGB3LRAAP7w3/h8NvvyrmK//sq+bCVGP+bP92PPI+7pju9zaeDgAA==",
);

/** The same picture as PNG: IHDR, IDAT, IEND. */
export const PLAIN_PNG = fromBase64(
  "iVBORw0KGgoAAAANSUhEUgAAAAgAAAAECAYAAACzzX7wAAAAJ0lEQVR4AaTKMQ0AAAgDQVIllYAEpNdZWbsx8MltDzWdOHJCHf2HBQAA//+F1cOEAAAABklEQVQDAITxEMHG/rOSAAAAAElFTkSuQmCC",
);

export const PDF = new TextEncoder().encode(
  "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);

const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

export function concat(...pieces: Uint8Array[]): Uint8Array {
  const result = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    result.set(piece, offset);
    offset += piece.length;
  }
  return result;
}

const u16be = (value: number) => Uint8Array.of(value >> 8, value & 0xff);
const u32be = (value: number) => Uint8Array.of(value >>> 24, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff);
const u32le = (value: number) => Uint8Array.of(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24);

/** 48° 51′ 24.11″ as three big-endian RATIONALs: the latitude bytes a test looks for after stripping. */
export const GPS_LATITUDE_BYTES = concat(u32be(48), u32be(1), u32be(51), u32be(1), u32be(2411), u32be(100));
const GPS_LONGITUDE_BYTES = concat(u32be(2), u32be(1), u32be(17), u32be(1), u32be(4015), u32be(100));
export const CAMERA_MAKE = "PhoneCo";
export const XMP_MARKER = "buyer-home-address-in-xmp";
export const COMMENT_MARKER = "buyer-comment-text";

/**
 * An Exif TIFF structure (big-endian) as a phone writes it: IFD0 with Make, Orientation and a pointer to the GPS
 * IFD, which holds latitude N 48° 51′ 24.11″ and longitude E 2° 17′ 40.15″.
 */
export function exifTiff(orientation = 6): Uint8Array {
  const entry = (tag: number, type: number, count: number, value: Uint8Array) =>
    concat(u16be(tag), u16be(type), u32be(count), value);
  const ASCII = 2;
  const SHORT = 3;
  const LONG = 4;
  const RATIONAL = 5;
  const ifd0 = concat(
    u16be(3),
    entry(0x010f, ASCII, 8, u32be(50)), // Make → "PhoneCo\0" at 50
    entry(0x0112, SHORT, 1, concat(u16be(orientation), u16be(0))),
    entry(0x8825, LONG, 1, u32be(58)), // GPS IFD at 58
    u32be(0),
  );
  const gpsIfd = concat(
    u16be(4),
    entry(0x0001, ASCII, 2, concat(ascii("N"), new Uint8Array(3))),
    entry(0x0002, RATIONAL, 3, u32be(112)),
    entry(0x0003, ASCII, 2, concat(ascii("E"), new Uint8Array(3))),
    entry(0x0004, RATIONAL, 3, u32be(136)),
    u32be(0),
  );
  return concat(
    ascii("MM"),
    u16be(42),
    u32be(8),
    ifd0,
    ascii(`${CAMERA_MAKE}\0`),
    gpsIfd,
    GPS_LATITUDE_BYTES,
    GPS_LONGITUDE_BYTES,
  );
}

export const XMP_PACKET = ascii(
  `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" Iptc4xmpCore:Location="${XMP_MARKER}"/></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`,
);

const jpegSegment = (marker: number, payload: Uint8Array) =>
  concat(Uint8Array.of(0xff, marker), u16be(payload.length + 2), payload);

/**
 * PLAIN_JPEG with what cameras and editors add: APP1 Exif (GPS), APP1 XMP, APP13 Photoshop IPTC, COM, an APP2 MPF
 * header, and a second "image" after EOI carrying Exif again (as multi-picture files do).
 */
export function jpegWithMetadata(orientation = 6): Uint8Array {
  const app0End = 4 + ((PLAIN_JPEG[4] << 8) | PLAIN_JPEG[5]);
  const exif = jpegSegment(0xe1, concat(ascii("Exif\0\0"), exifTiff(orientation)));
  const xmp = jpegSegment(0xe1, concat(ascii("http://ns.adobe.com/xap/1.0/\0"), XMP_PACKET));
  const iptc = jpegSegment(
    0xed,
    concat(ascii("Photoshop 3.0\x008BIM"), u16be(0x0404), ascii(`\0\0\0\0\0\x1c\x02\x5a${XMP_MARKER}`)),
  );
  const comment = jpegSegment(0xfe, ascii(COMMENT_MARKER));
  const mpf = jpegSegment(0xe2, concat(ascii("MPF\0"), ascii("MM\0*\0\0\0\x08")));
  const trailer = concat(Uint8Array.of(0xff, 0xd8), exif, Uint8Array.of(0xff, 0xd9));
  return concat(
    PLAIN_JPEG.subarray(0, app0End),
    exif,
    xmp,
    iptc,
    mpf,
    PLAIN_JPEG.subarray(app0End, PLAIN_JPEG.length - 2),
    comment,
    Uint8Array.of(0xff, 0xd9),
    trailer,
  );
}

export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeAndData = concat(ascii(type), data);
  return concat(u32be(data.length), typeAndData, u32be(crc32(typeAndData)));
}

/** PLAIN_PNG with eXIf (GPS), tEXt, zTXt, iTXt (XMP), tIME, and bytes after IEND. */
export function pngWithMetadata(orientation = 6): Uint8Array {
  const ihdrEnd = 8 + 12 + 13;
  return concat(
    PLAIN_PNG.subarray(0, ihdrEnd),
    pngChunk("eXIf", exifTiff(orientation)),
    pngChunk("tEXt", ascii(`Comment\0${COMMENT_MARKER}`)),
    pngChunk("zTXt", ascii("Author\0\0xxxx")),
    pngChunk("iTXt", concat(ascii("XML:com.adobe.xmp\0\0\0\0\0"), XMP_PACKET)),
    pngChunk("tIME", Uint8Array.of(0x07, 0xea, 11, 23, 19, 30, 0)),
    PLAIN_PNG.subarray(ihdrEnd),
    ascii(`after-iend ${XMP_MARKER}`),
  );
}

const webpChunk = (type: string, data: Uint8Array) =>
  concat(ascii(type), u32le(data.length), data, data.length % 2 ? new Uint8Array(1) : new Uint8Array(0));

/** PLAIN_WEBP with EXIF (GPS) and XMP chunks, their VP8X flags set and the RIFF size fixed. */
export function webpWithMetadata(): Uint8Array {
  const body = concat(PLAIN_WEBP.subarray(12), webpChunk("EXIF", exifTiff()), webpChunk("XMP ", XMP_PACKET));
  body[8] |= 0x08 | 0x04; // VP8X flags: the first byte of the first chunk's payload
  return concat(ascii("RIFF"), u32le(4 + body.length), ascii("WEBP"), body);
}

/** Text hidden where no viewer shows it: in chunks and segments an image does not need to be drawn. */
export const HIDDEN_TEXT = "hidden-text-the-buyer-never-saw";

/** An ICC profile as an editor writes one, its description tag holding HIDDEN_TEXT (a profile's text is free). */
const iccProfileWithText = () => concat(u32be(0), ascii("lcms"), new Uint8Array(32), ascii(`desc ${HIDDEN_TEXT}`));

/**
 * PLAIN_JPEG (JFIF, an ICC profile) with text in every place a deny-list misses: the ICC profile's description, an
 * APP0 JFXX extension, APP15, a JPG8 (0xF8) segment, plus an APP14 Adobe segment a CMYK decoder needs.
 */
export function jpegWithHiddenText(): Uint8Array {
  const app0End = 4 + ((PLAIN_JPEG[4] << 8) | PLAIN_JPEG[5]);
  return concat(
    PLAIN_JPEG.subarray(0, app0End),
    jpegSegment(0xe0, concat(ascii("JFXX\0\x13"), ascii(HIDDEN_TEXT))),
    jpegSegment(0xe2, concat(ascii("ICC_PROFILE\0\x01\x01"), iccProfileWithText())),
    jpegSegment(0xef, ascii(HIDDEN_TEXT)),
    jpegSegment(0xf8, ascii(HIDDEN_TEXT)),
    ADOBE_APP14,
    PLAIN_JPEG.subarray(app0End),
  );
}

/** APP14 "Adobe": version 100, flags 0, 0, transform 1 (YCbCr). */
export const ADOBE_APP14 = jpegSegment(0xee, concat(ascii("Adobe"), Uint8Array.of(0, 100, 0, 0, 0, 0, 1)));

/**
 * PLAIN_PNG with the chunks that change how it is drawn (gAMA, cHRM, sRGB, tRNS) and text where a deny-list misses
 * it: an iCCP profile, a private chunk (prVt), sPLT's palette name, and bKGD and pHYs beside them.
 */
export function pngWithHiddenText(): Uint8Array {
  const ihdrEnd = 8 + 12 + 13;
  return concat(
    PLAIN_PNG.subarray(0, ihdrEnd),
    pngChunk("gAMA", u32be(45455)),
    pngChunk("cHRM", new Uint8Array(32).fill(1)),
    pngChunk("sRGB", Uint8Array.of(0)),
    pngChunk("iCCP", concat(ascii("profile\0\0"), iccProfileWithText())),
    pngChunk("sPLT", concat(ascii(`${HIDDEN_TEXT}\0`), Uint8Array.of(8), new Uint8Array(6))),
    pngChunk("bKGD", u16be(0)),
    pngChunk("pHYs", concat(u32be(2835), u32be(2835), Uint8Array.of(1))),
    pngChunk("tRNS", u16be(0)),
    pngChunk("prVt", ascii(HIDDEN_TEXT)),
    PLAIN_PNG.subarray(ihdrEnd),
  );
}

/** PLAIN_WEBP (VP8X, ICCP, VP8) with its ICC profile's text and an unknown chunk holding HIDDEN_TEXT. */
export function webpWithHiddenText(): Uint8Array {
  const vp8x = PLAIN_WEBP.subarray(12, 12 + 18);
  const vp8 = PLAIN_WEBP.subarray(PLAIN_WEBP.length - (8 + PLAIN_WEBP_VP8_SIZE));
  return riffWebp(vp8x, webpChunk("ICCP", iccProfileWithText()), webpChunk("TEXT", ascii(HIDDEN_TEXT)), vp8);
}

const PLAIN_WEBP_VP8_SIZE = 0x42;

/**
 * An animated WebP of one frame: VP8X (animation flag), ANIM, and an ANMF holding PLAIN_WEBP's VP8 bitstream and an
 * unknown chunk with HIDDEN_TEXT, plus an unknown top-level chunk.
 */
export function animatedWebpWithHiddenText(): Uint8Array {
  const vp8 = PLAIN_WEBP.subarray(PLAIN_WEBP.length - (8 + PLAIN_WEBP_VP8_SIZE));
  const vp8x = webpChunk("VP8X", concat(Uint8Array.of(0x02, 0, 0, 0), Uint8Array.of(7, 0, 0, 3, 0, 0)));
  const anim = webpChunk("ANIM", new Uint8Array(6));
  const frameHeader = concat(new Uint8Array(6), Uint8Array.of(7, 0, 0, 3, 0, 0), Uint8Array.of(100, 0, 0, 0));
  const anmf = webpChunk("ANMF", concat(frameHeader, webpChunk("TEXT", ascii(HIDDEN_TEXT)), vp8));
  return riffWebp(vp8x, anim, anmf, webpChunk("XYZW", ascii(HIDDEN_TEXT)));
}

const riffWebp = (...chunks: Uint8Array[]) => {
  const body = concat(...chunks);
  return concat(ascii("RIFF"), u32le(4 + body.length), ascii("WEBP"), body);
};

const box = (type: string, ...payload: Uint8Array[]) => {
  const content = concat(...payload);
  return concat(u32be(8 + content.length), ascii(type), content);
};
const fullBox = (type: string, version: number, ...payload: Uint8Array[]) =>
  box(type, Uint8Array.of(version, 0, 0, 0), ...payload);

export const HEIC_IMAGE_DATA = ascii("not-really-hevc-but-the-image-bytes-that-must-survive");

export interface HeicSample {
  bytes: Uint8Array;
  /** Where each item's bytes lie in the file: [start, end). */
  imageRange: [number, number];
  exifRange: [number, number];
  xmpRange: [number, number];
  /** The ICC `colr` box (`prof`) of `ipco`, whose profile carries HEIC_ICC_TEXT. */
  iccBoxRange: [number, number];
  /** The `nclx` `colr` box of `ipco`. */
  nclxBoxRange: [number, number];
  /** Where `ipma` associates the image item with the ICC `colr` box (essential flag set). */
  iccAssociationAt: number;
}

/** Text in the HEIC sample's ICC profile (a profile's description and copyright tags hold any text). */
export const HEIC_ICC_TEXT = "icc-desc: Jane Buyer, 12 Hidden Lane";

/**
 * A HEIC container as an iPhone lays it out, box by box: ftyp (heic; mif1, heic), meta (hdlr pict, pitm, iinf with
 * an hvc1 image item 1, an Exif item 2 and an XMP item 3 of type application/rdf+xml, iloc version 1, idat holding the
 * XMP, iprp with ipco — ispe, an ICC colr (prof), an nclx colr — and ipma giving all three to item 1, the ICC one
 * essential), then mdat holding the image and the Exif (4-byte TIFF header offset, "Exif\0\0", the TIFF).
 */
export function heicWithMetadata(
  brands: { major: string; compatible: string[] } = { major: "heic", compatible: ["mif1", "heic"] },
): HeicSample {
  const ftyp = box("ftyp", ascii(brands.major), u32be(0), ...brands.compatible.map(ascii));
  const exifPayload = concat(u32be(6), ascii("Exif\0\0"), exifTiff());
  const infe = (id: number, type: string, extra: Uint8Array = new Uint8Array(0)) =>
    fullBox("infe", 2, u16be(id), u16be(0), ascii(type), ascii("\0"), extra);
  const iinf = fullBox(
    "iinf",
    0,
    u16be(3),
    infe(1, "hvc1"),
    infe(2, "Exif"),
    infe(3, "mime", ascii("application/rdf+xml\0")),
  );
  // iloc v1: offset_size 4, length_size 4, base_offset_size 0, index_size 0; the mdat offsets are patched below.
  const ilocFor = (imageOffset: number, exifOffset: number) =>
    fullBox(
      "iloc",
      1,
      Uint8Array.of(0x44, 0x00),
      u16be(3),
      concat(u16be(1), u16be(0), u16be(0), u16be(1), u32be(imageOffset), u32be(HEIC_IMAGE_DATA.length)),
      concat(u16be(2), u16be(0), u16be(0), u16be(1), u32be(exifOffset), u32be(exifPayload.length)),
      concat(u16be(3), u16be(1), u16be(0), u16be(1), u32be(0), u32be(XMP_PACKET.length)), // construction method 1: idat
    );
  const iccColr = box("colr", ascii("prof"), new Uint8Array(12), ascii(HEIC_ICC_TEXT));
  const nclxColr = box("colr", ascii("nclx"), u16be(1), u16be(13), u16be(6), Uint8Array.of(0x80));
  const ipco = box("ipco", fullBox("ispe", 0, u32be(8), u32be(4)), iccColr, nclxColr);
  // ipma v0, flags 0: 16-bit item ids, 8-bit associations (essential flag 0x80, then the 1-based index).
  const ipma = fullBox("ipma", 0, u32be(1), u16be(1), Uint8Array.of(3, 0x01, 0x82, 0x03));
  const iprp = box("iprp", ipco, ipma);
  const metaFor = (iloc: Uint8Array) =>
    fullBox(
      "meta",
      0,
      fullBox("hdlr", 0, u32be(0), ascii("pict"), new Uint8Array(12), ascii("\0")),
      fullBox("pitm", 0, u16be(1)),
      iinf,
      iloc,
      iprp,
      box("idat", XMP_PACKET),
    );
  const metaLength = metaFor(ilocFor(0, 0)).length;
  const mdatStart = ftyp.length + metaLength + 8;
  const imageStart = mdatStart;
  const exifStart = imageStart + HEIC_IMAGE_DATA.length;
  const meta = metaFor(ilocFor(imageStart, exifStart));
  const bytes = concat(ftyp, meta, box("mdat", HEIC_IMAGE_DATA, exifPayload));
  const idatStart = ftyp.length + meta.length - XMP_PACKET.length;
  const iprpStart = idatStart - 8 - iprp.length;
  const iccBoxStart = iprpStart + 8 + 8 + 20; // iprp's header, ipco's header, ispe
  const nclxBoxStart = iccBoxStart + iccColr.length;
  return {
    bytes,
    imageRange: [imageStart, exifStart],
    exifRange: [exifStart, exifStart + exifPayload.length],
    xmpRange: [idatStart, idatStart + XMP_PACKET.length],
    iccBoxRange: [iccBoxStart, nclxBoxStart],
    nclxBoxRange: [nclxBoxStart, nclxBoxStart + nclxColr.length],
    iccAssociationAt: iprpStart + 8 + ipco.length + 12 + 4 + 2 + 1 + 1,
  };
}

/** Whether `needle` occurs in `haystack`. */
export function containsBytes(haystack: Uint8Array, needle: Uint8Array | string): boolean {
  const wanted = typeof needle === "string" ? ascii(needle) : needle;
  return Buffer.from(haystack.buffer, haystack.byteOffset, haystack.length).indexOf(Buffer.from(wanted)) !== -1;
}

/**
 * A PNG photo-like picture of `size` × `size` pixels (8-bit RGB, no filter): a grid of 8 × 8 cells whose grey levels
 * come from `seed`, each pixel lightened by `brighten` and, where `mark` says, a cell painted white. The same seed
 * draws the same picture: with another `brighten` (new bytes, the same picture) or a `mark` (a small change) it is the
 * near-same photo a perceptual hash finds; another seed is another picture.
 */
export function photoPng(seed: number, options: { size?: number; brighten?: number; mark?: [number, number] } = {}) {
  const size = options.size ?? 64;
  const cells = 8;
  let state = seed >>> 0 || 1;
  const next = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 16) & 0xff;
  const grey = Array.from({ length: cells * cells }, next);
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0); // filter: none
    for (let x = 0; x < size; x++) {
      const cx = Math.floor((x * cells) / size);
      const cy = Math.floor((y * cells) / size);
      const marked = options.mark && options.mark[0] === cx && options.mark[1] === cy;
      const level = marked ? 255 : Math.min(255, grey[cy * cells + cx] + (options.brighten ?? 0));
      rows.push(level, level, level);
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, adaptive filtering, no interlace
  return concat(
    Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
    pngChunk("IHDR", header),
    pngChunk("IDAT", new Uint8Array(deflateSync(Uint8Array.from(rows)))),
    pngChunk("IEND", new Uint8Array(0)),
  );
}
