// A small photo drawn in code, as a buyer's evidence for the demo's claims (npm run demo) and the console's tests: a
// real PNG (320 × 240: a parcel on a table, its side torn) that a browser draws, without shipping an image file.
import zlib from "node:zlib";

const WIDTH = 320;
const HEIGHT = 240;

type Rgb = readonly [number, number, number];

function pixel(x: number, y: number): Rgb {
  const table: Rgb = y > 180 ? [196, 170, 140] : [226, 230, 236];
  const inBox = x >= 70 && x < 250 && y >= 60 && y < 200;
  if (!inBox) return table;
  if (y < 76) return [166, 120, 72]; // the lid's edge
  // The tear: a dark jagged band across the box's side.
  const tearY = 120 + Math.round(12 * Math.sin(x / 9)) + (x - 70) / 6;
  if (Math.abs(y - tearY) < 4) return [60, 42, 28];
  if (x >= 150 && x < 170) return [214, 196, 150]; // tape
  return [186, 138, 86];
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The parcel photo's PNG bytes. */
export function demoPhotoPng(): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  const rows = Buffer.alloc(HEIGHT * (1 + WIDTH * 3));
  for (let y = 0; y < HEIGHT; y++) {
    const start = y * (1 + WIDTH * 3);
    rows[start] = 0; // filter: none
    for (let x = 0; x < WIDTH; x++) rows.set(pixel(x, y), start + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
