/** Small generators for example media: a PNG encoder and a WAV tone, enough to show binary content blocks. */

/** zlib loads with the first image: a cold start, and calls that make none, do not pay for it. */
const loadZlib = () => import('node:zlib');

type Crc32 = (data: Buffer) => number;

function chunk(type: string, data: Buffer, crc32: Crc32): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

type Pixel = (x: number, y: number) => [number, number, number];

/** Writes one row of raw RGB samples, behind its filter byte, into `raw`. */
function fillRow(raw: Buffer, y: number, width: number, pixel: Pixel): void {
  const stride = width * 3 + 1;
  raw[y * stride] = 0; // filter: none
  for (let x = 0; x < width; x++) {
    const [r, g, b] = pixel(x, y);
    const o = y * stride + 1 + x * 3;
    raw[o] = r;
    raw[o + 1] = g;
    raw[o + 2] = b;
  }
}

/** The PNG file around already compressed image data. */
function pngFile(width: number, height: number, idat: Buffer, crc32: Crc32): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr, crc32),
    chunk('IDAT', idat, crc32),
    chunk('IEND', Buffer.alloc(0), crc32),
  ]);
}

/** Encodes an RGB image whose pixel colours come from `pixel(x, y)` (small images: it blocks while it runs). */
export async function encodePng(width: number, height: number, pixel: Pixel): Promise<Buffer> {
  const { crc32, deflateSync } = await loadZlib();
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) fillRow(raw, y, width, pixel);
  return pngFile(width, height, deflateSync(raw), crc32);
}

/**
 * The same encoding for images of any size, within a tool's time budget: a checkpoint after every row (the tool's
 * `ctx.checkpoint`), and compression off the main thread.
 */
export async function renderPng(
  width: number,
  height: number,
  pixel: Pixel,
  checkpoint: () => Promise<void>,
): Promise<Buffer> {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    fillRow(raw, y, width, pixel);
    await checkpoint();
  }
  const { crc32, deflate } = await loadZlib();
  const idat = await new Promise<Buffer>((resolve, reject) =>
    deflate(raw, (error, out) => (error ? reject(error) : resolve(out))),
  );
  return pngFile(width, height, idat, crc32);
}

/** A mono 16-bit PCM WAV of a sine tone. */
export function encodeToneWav(frequencyHz: number, durationMs: number, sampleRate = 8000): Buffer {
  const samples = Math.round((sampleRate * durationMs) / 1000);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequencyHz * i) / sampleRate) * 12000), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
