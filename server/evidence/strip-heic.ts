import { ByteReader, malformed } from "./byte-reader.ts";

// HEIC (HEIF, ISO/IEC 23008-12): metadata are items of the top-level `meta` box — an `Exif` item (with GPS) and XMP
// as a `mime` item of type application/rdf+xml — whose bytes lie wherever the `iloc` box says (usually in `mdat`, or
// in `meta`'s own `idat`), and an ICC colour profile, a `colr` property (`prof` or `rICC`) in `iprp`'s `ipco`, whose
// tag texts (description, copyright, any private tag) can carry anything, as in JPEG, PNG and WebP, where ICC goes
// too. The items' bytes are overwritten with zeros where they lie, and the ICC `colr` box becomes a `free` box of
// zeros of the same size (its associations in `ipma` lose their essential flag, so no reader stops at it); an `nclx`
// `colr` (a few numbers) stays. No box changes size. Why not remove them: every other item (the image tiles, the
// thumbnail) is located by absolute file offsets in `iloc`, and every property by its position in `ipco`, so taking
// bytes out means rewriting every offset and every property index — where one mistake makes the photo unreadable —
// whereas overwriting keeps the structure, every offset and every index exactly as they were; decoders need neither
// the metadata items nor the profile to show the image (without one they take sRGB). Written by hand: the npm
// packages for HEIC read Exif or decode the image (through a WebAssembly libheif), none removes metadata; sharp
// re-encodes and, prebuilt, cannot write HEVC.

const FORMAT = "HEIC";

interface Box {
  type: string;
  start: number;
  /** Where the box's payload starts (after the size, the type and any 64-bit size). */
  payloadStart: number;
  end: number;
}

function childBoxes(reader: ByteReader, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let position = start;
  while (position < end) {
    const size32 = reader.u32be(position, "box header");
    const type = reader.ascii(position + 4, 4, "box header");
    let headerSize = 8;
    let size = size32;
    if (size32 === 1) {
      size = reader.uintbe(position + 8, 8, "box size");
      headerSize = 16;
    } else if (size32 === 0) {
      size = end - position; // the box runs to the end of its container
    }
    if (size < headerSize || position + size > end) throw malformed(FORMAT, `box ${JSON.stringify(type)} size`);
    boxes.push({ type, start: position, payloadStart: position + headerSize, end: position + size });
    position += size;
  }
  return boxes;
}

/**
 * Returns a copy whose Exif and XMP item bytes are zeros and whose ICC `colr` boxes are `free` boxes of zeros (their
 * `ipma` associations not essential); anything else is byte-for-byte the same.
 */
export function stripHeicMetadata(bytes: Uint8Array): Uint8Array {
  const reader = new ByteReader(bytes, FORMAT);
  const top = childBoxes(reader, 0, bytes.length);
  if (top[0]?.type !== "ftyp") throw malformed(FORMAT, "the first box is not ftyp");
  const result = bytes.slice();
  const meta = top.find((box) => box.type === "meta");
  // Without a `meta` box there are no items, so no Exif or XMP item either (a bare image sequence).
  if (!meta) return result;
  // `meta` is a full box: a version and flags word precedes its children.
  const children = childBoxes(reader, meta.payloadStart + 4, meta.end);
  const itemInfo = children.find((box) => box.type === "iinf");
  const locations = children.find((box) => box.type === "iloc");
  const itemData = children.find((box) => box.type === "idat");
  const properties = children.find((box) => box.type === "iprp");
  if (properties) freeColourProfiles(reader, properties, result);
  if (!itemInfo) return result;
  const metadataItems = metadataItemIds(reader, itemInfo);
  if (metadataItems.size === 0) return result;
  if (!locations) throw malformed(FORMAT, "metadata items without an iloc box");
  for (const extent of itemExtents(reader, locations, metadataItems)) {
    let start = extent.offset;
    if (extent.constructionMethod === 1) {
      if (!itemData) throw malformed(FORMAT, "an item in idat without an idat box");
      start += itemData.payloadStart;
      if (start + extent.length > itemData.end) throw malformed(FORMAT, "an item extent outside idat");
    } else if (extent.constructionMethod !== 0) {
      throw malformed(FORMAT, "a metadata item built from other items");
    }
    // A zero length means "to the end of the file": not something a metadata item should do, and not safe to zero.
    if (extent.length === 0) throw malformed(FORMAT, "a metadata item of unspecified length");
    reader.need(start, extent.length, "item extent");
    result.fill(0, start, start + extent.length);
  }
  return result;
}

/** The ids of the Exif and XMP items listed in `iinf` (item info entries of version 2 and 3 carry the item type). */
function metadataItemIds(reader: ByteReader, itemInfo: Box): Set<number> {
  const version = reader.u8(itemInfo.payloadStart, "iinf version");
  const entriesStart = itemInfo.payloadStart + 4 + (version === 0 ? 2 : 4);
  const ids = new Set<number>();
  for (const entry of childBoxes(reader, entriesStart, itemInfo.end)) {
    if (entry.type !== "infe") continue;
    const entryVersion = reader.u8(entry.payloadStart, "infe version");
    if (entryVersion < 2) continue; // versions 0 and 1 predate item types: no Exif/XMP item is declared that way
    let position = entry.payloadStart + 4;
    const id = entryVersion === 2 ? reader.u16be(position, "item id") : reader.u32be(position, "item id");
    position += (entryVersion === 2 ? 2 : 4) + 2; // the id, then item_protection_index
    const itemType = reader.ascii(position, 4, "item type");
    position += 4;
    if (itemType === "Exif") ids.add(id);
    if (itemType === "mime") {
      const nameEnd = nulTerminated(reader, position, entry.end);
      const contentTypeEnd = nulTerminated(reader, nameEnd + 1, entry.end);
      const contentType = reader.ascii(nameEnd + 1, contentTypeEnd - nameEnd - 1, "content type");
      if (contentType.trim().toLowerCase().startsWith("application/rdf+xml")) ids.add(id);
    }
  }
  return ids;
}

function nulTerminated(reader: ByteReader, start: number, end: number): number {
  const at = reader.bytes.subarray(0, end).indexOf(0, start);
  if (at === -1) throw malformed(FORMAT, "an unterminated string in infe");
  return at;
}

interface Extent {
  constructionMethod: number;
  offset: number;
  length: number;
}

/** The extents `iloc` gives for the wanted items (ISO/IEC 14496-12, section 8.11.3, versions 0–2). */
function itemExtents(reader: ByteReader, locations: Box, wanted: Set<number>): Extent[] {
  const version = reader.u8(locations.payloadStart, "iloc version");
  if (version > 2) throw malformed(FORMAT, "iloc version");
  let position = locations.payloadStart + 4;
  const sizes = reader.u8(position, "iloc sizes");
  const moreSizes = reader.u8(position + 1, "iloc sizes");
  const offsetSize = sizes >> 4;
  const lengthSize = sizes & 0x0f;
  const baseOffsetSize = moreSizes >> 4;
  const indexSize = version === 0 ? 0 : moreSizes & 0x0f;
  position += 2;
  const itemCount = version < 2 ? reader.u16be(position, "iloc count") : reader.u32be(position, "iloc count");
  position += version < 2 ? 2 : 4;
  const extents: Extent[] = [];
  for (let item = 0; item < itemCount; item += 1) {
    const id = version < 2 ? reader.u16be(position, "iloc item") : reader.u32be(position, "iloc item");
    position += version < 2 ? 2 : 4;
    let constructionMethod = 0;
    if (version > 0) {
      constructionMethod = reader.u16be(position, "iloc item") & 0x0f;
      position += 2;
    }
    const dataReferenceIndex = reader.u16be(position, "iloc item");
    const baseOffset = reader.uintbe(position + 2, baseOffsetSize, "iloc base offset");
    position += 2 + baseOffsetSize;
    const extentCount = reader.u16be(position, "iloc extent count");
    position += 2;
    if (indexSize + offsetSize + lengthSize === 0) {
      // Extents of no bytes at all cannot be walked one by one (65,535 of them would not move); one stands for all.
      if (wanted.has(id) && dataReferenceIndex === 0 && extentCount > 0) {
        extents.push({ constructionMethod, offset: baseOffset, length: 0 });
      }
      continue;
    }
    for (let index = 0; index < extentCount; index += 1) {
      position += indexSize;
      const offset = reader.uintbe(position, offsetSize, "iloc extent");
      const length = reader.uintbe(position + offsetSize, lengthSize, "iloc extent");
      position += offsetSize + lengthSize;
      if (position > locations.end) throw malformed(FORMAT, "iloc runs past its box");
      // data_reference_index ≠ 0: the bytes are in another file, so there is nothing here to clear.
      if (wanted.has(id) && dataReferenceIndex === 0) {
        extents.push({ constructionMethod, offset: baseOffset + offset, length });
      }
    }
  }
  return extents;
}

/**
 * Turns every ICC `colr` box of `iprp`'s `ipco` into a `free` box of zeros of the same size, and clears the essential
 * flag of `ipma`'s associations with it (a reader refuses an item with an essential property it does not know).
 */
function freeColourProfiles(reader: ByteReader, properties: Box, result: Uint8Array): void {
  const children = childBoxes(reader, properties.payloadStart, properties.end);
  const container = children.find((box) => box.type === "ipco");
  if (!container) return;
  const freed = new Set<number>();
  childBoxes(reader, container.payloadStart, container.end).forEach((property, index) => {
    if (property.type !== "colr") return;
    const colourType = reader.ascii(property.payloadStart, 4, "colr colour type");
    if (colourType !== "prof" && colourType !== "rICC") return; // nclx: a few numbers, nothing to hide text in
    result.set(new TextEncoder().encode("free"), property.start + 4);
    result.fill(0, property.payloadStart, property.end);
    freed.add(index + 1); // ipma counts ipco's properties from 1
  });
  if (freed.size === 0) return;
  for (const associations of children.filter((box) => box.type === "ipma")) {
    clearEssentialFlags(reader, associations, freed, result);
  }
}

/** ISO/IEC 23008-12, section 9.3.2: ipma lists, per item, its properties' 1-based indices with an essential flag. */
function clearEssentialFlags(reader: ByteReader, associations: Box, indices: Set<number>, result: Uint8Array): void {
  const version = reader.u8(associations.payloadStart, "ipma version");
  const wideIndices = (reader.u8(associations.payloadStart + 3, "ipma flags") & 1) === 1;
  let position = associations.payloadStart + 4;
  const entryCount = reader.u32be(position, "ipma count");
  position += 4;
  for (let entry = 0; entry < entryCount; entry += 1) {
    position += version < 1 ? 2 : 4; // the item id
    const associationCount = reader.u8(position, "ipma entry");
    position += 1;
    for (let association = 0; association < associationCount; association += 1) {
      if (position + (wideIndices ? 2 : 1) > associations.end) throw malformed(FORMAT, "ipma runs past its box");
      const value = wideIndices ? reader.u16be(position, "ipma association") : reader.u8(position, "ipma association");
      const essential = wideIndices ? 0x8000 : 0x80;
      if (indices.has(value & (essential - 1))) result[position] &= 0x7f; // the flag is the first byte's high bit
      position += wideIndices ? 2 : 1;
    }
  }
}
