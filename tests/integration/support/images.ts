/**
 * Images for the upload tests: one small whole file of each accepted type, and builders of
 * the hostile ones (a PNG claiming any size, bytes after the end).
 */
import { crc32, deflateSync } from "node:zlib";
import { encode as encodeJpeg } from "jpeg-js";

const base64 = (text: string) => Buffer.from(text, "base64");

/** Whole, decodable images of each type the platform stores. */
export const IMAGES = {
  /** 1 × 1, grey. */
  png: base64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
  /** 16 × 16, baseline, encoded here (grey). */
  jpg: Buffer.from(encodeJpeg({ data: Buffer.alloc(16 * 16 * 4, 0x80), width: 16, height: 16 }, 80).data),
  /** 1 × 1, lossless. */
  webp: base64("UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=="),
  /** 1 × 1, transparent. */
  gif: base64("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"),
};

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A black-and-white PNG whose header says `width` × `height`. Whole: every row is there
 * (zeros deflate a thousandfold), so it decodes to that size. Else only one row: a few dozen
 * bytes claiming the size.
 */
export function pngOfSize(width: number, height: number, { whole }: { whole: boolean }): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // 1 bit per pixel, greyscale, deflate, no filter, no interlace
  // Each row: a filter byte, then one bit per pixel.
  const row = 1 + Math.ceil(width / 8);
  const pixels = deflateSync(Buffer.alloc(whole ? row * height : 1), { level: 9 });
  return Buffer.concat([IMAGES.png.subarray(0, 8), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]);
}

/** A page a browser sniffing the bytes would run. */
export const HTML = Buffer.from("<html><body><script>alert(document.cookie)</script></body></html>");
