/**
 * Stored images (deposit receipts, slider images): checked by their bytes (not only their
 * label), written under the uploads directory with a random name, served to admins.
 *
 * An accepted image is a whole file of its type, read by `image-size` (a maintained header
 * parser): at most IMAGE_MAX_SIDE pixels per side, since a few hundred bytes of PNG can
 * claim a picture that takes gigabytes to decode, and nothing after its end marker, since
 * bytes there (HTML, a script) are no image but a file to smuggle.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { imageSize } from "image-size";
import { badRequest, payloadTooLarge } from "./errors.js";

export const IMAGE_MAX_BYTES = 1024 * 1024;
/** The widest and tallest image stored, in pixels: 8000 × 8000 decodes to 256 MB of RGBA. */
export const IMAGE_MAX_SIDE = 8_000;
export const IMAGE_MESSAGE = {
  invalid: "Image must be a PNG, JPEG, WebP or GIF data URL",
  tooLarge: "Image must be at most 1 MB",
  tooWide: `Image must be at most ${IMAGE_MAX_SIDE} × ${IMAGE_MAX_SIDE} pixels`,
  trailing: "Image must end at its end marker",
} as const;
/**
 * How a stored image is served. nosniff: the browser takes it as the type named, never as
 * HTML. no-store: receipts are private and, like every signed-in page of the console, must
 * not stay in a browser's cache after sign-out.
 */
export const IMAGE_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const;

/**
 * Each type's content type and where its data ends, walked through its structure (a read past
 * the bytes throws): the byte after PNG's IEND chunk, after JPEG's EOI marker (FFD9) that
 * follows its last scan, after WebP's RIFF chunk, after GIF's trailer (3B).
 */
const TYPES = {
  png: { mime: "image/png", end: pngEnd },
  jpg: { mime: "image/jpeg", end: jpegEnd },
  webp: { mime: "image/webp", end: webpEnd },
  gif: { mime: "image/gif", end: gifEnd },
} as const;
export type ImageExt = keyof typeof TYPES;
type Ext = ImageExt;
const EXT_OF_MIME: Record<string, Ext> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };

function pngEnd(b: Buffer): number {
  // After the 8-byte signature: chunks of length, type, data and CRC.
  for (let at = 8; ; at += 12 + b.readUInt32BE(at)) {
    if (b.toString("latin1", at + 4, at + 8) === "IEND") return at + 12;
  }
}

function webpEnd(b: Buffer): number {
  // RIFF, the size of what follows, then the WebP chunks; an odd size is padded to even.
  const size = b.readUInt32LE(4);
  return 8 + size + (size % 2);
}

const isRestart = (marker: number) => marker >= 0xd0 && marker <= 0xd7;

function jpegEnd(b: Buffer): number {
  // After SOI: segments of FF, marker and a length counting itself; a scan (SOS) is followed
  // by entropy-coded data, where FF is followed by 00 (a stuffed byte) or a restart marker.
  for (let at = 2; ; ) {
    if (b.readUInt8(at) !== 0xff) throw new RangeError("not a JPEG marker");
    const marker = b.readUInt8(at + 1);
    if (marker === 0xd9) return at + 2;
    if (marker === 0xff) at += 1; // a fill byte
    else if (marker === 0x01 || isRestart(marker)) at += 2;
    else {
      at += 2 + b.readUInt16BE(at + 2);
      if (marker !== 0xda) continue;
      while (b.readUInt8(at) !== 0xff || b.readUInt8(at + 1) === 0 || isRestart(b.readUInt8(at + 1))) at += 1;
    }
  }
}

function gifEnd(b: Buffer): number {
  // A colour table's size is in the low 3 bits of its flags, when the high bit says there is one.
  const colourTable = (flags: number) => (flags & 0x80 ? 3 << ((flags & 7) + 1) : 0);
  // Data sub-blocks: a length byte, that many bytes, until a zero length.
  const afterSubBlocks = (at: number) => {
    while (b.readUInt8(at) !== 0) at += 1 + b.readUInt8(at);
    return at + 1;
  };
  // Header (6) and logical screen descriptor (7), then blocks until the trailer.
  for (let at = 13 + colourTable(b.readUInt8(10)); ; ) {
    const block = b.readUInt8(at);
    if (block === 0x3b) return at + 1;
    if (block === 0x21) at = afterSubBlocks(at + 2); // an extension: introducer, label, sub-blocks
    else if (block === 0x2c) at = afterSubBlocks(at + 10 + colourTable(b.readUInt8(at + 9)) + 1); // an image: descriptor, table, LZW code size
    else throw new RangeError("not a GIF block");
  }
}

/** The type among `allowed`, size and end of `bytes`; undefined when image-size knows no such image or a walk runs out of bytes. */
function inspectImage(bytes: Buffer, allowed: readonly Ext[]) {
  try {
    const { type, width, height } = imageSize(bytes);
    const ext = allowed.find((allowedType) => allowedType === type);
    return ext && { ext, width, height, end: TYPES[ext].end(bytes) };
  } catch {
    return undefined;
  }
}

/**
 * The type of `bytes` among `allowed`, if they are one whole image no larger than
 * IMAGE_MAX_SIDE per side; otherwise 400 `<field>: <why>`, `notType` when they are not an
 * image of an allowed type. The type is read from the bytes, never from a name.
 */
export function checkImage(bytes: Buffer, allowed: readonly Ext[], { notType, field }: { notType: string; field?: string }): Ext {
  const refuse = (message: string) => badRequest(field ? `${field}: ${message}` : message);
  const image = inspectImage(bytes, allowed);
  // An end beyond the bytes: a file cut short.
  if (!image || image.end > bytes.length) throw refuse(notType);
  if (image.width > IMAGE_MAX_SIDE || image.height > IMAGE_MAX_SIDE) throw refuse(IMAGE_MESSAGE.tooWide);
  if (image.end < bytes.length) throw refuse(IMAGE_MESSAGE.trailing);
  return image.ext;
}

/** A stored image's name: 32 hex characters and its extension. */
export const IMAGE_NAME = /^[0-9a-f]{32}\.(png|jpg|webp|gif)$/;

/** Decodes and checks a data URL: 400 unless an image of its label's type (checkImage), 413 above 1 MB. */
export function decodeImage(dataUrl: string): { bytes: Buffer; ext: Ext } {
  const match = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(dataUrl);
  const ext = match ? EXT_OF_MIME[match[1]!] : undefined;
  if (!match || !ext) throw badRequest(IMAGE_MESSAGE.invalid);
  // Refuse by length before decoding.
  if (base64DecodedLength(match[2]!) > IMAGE_MAX_BYTES) throw payloadTooLarge(IMAGE_MESSAGE.tooLarge);
  const bytes = Buffer.from(match[2]!, "base64");
  return { bytes, ext: checkImage(bytes, [ext], { notType: IMAGE_MESSAGE.invalid }) };
}

/** The bytes a base64 text decodes to (3 per 4 characters, less the padding). */
export function base64DecodedLength(base64: string): number {
  return Math.floor((base64.length * 3) / 4) - (base64.match(/=/g)?.length ?? 0);
}

export async function storeImage(dir: string, image: { bytes: Buffer; ext: Ext }): Promise<string> {
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString("hex")}.${image.ext}`;
  await writeFile(join(dir, name), image.bytes, { flag: "wx" });
  return name;
}

/** A stored image and its content type; `name` must match IMAGE_NAME. */
export async function readImage(dir: string, name: string): Promise<{ bytes: Buffer; mime: string }> {
  const ext = name.slice(name.lastIndexOf(".") + 1) as Ext;
  return { bytes: await readFile(join(dir, name)), mime: TYPES[ext].mime };
}

/** Deletes a stored image; one already gone is no error. */
export async function removeImage(dir: string, name: string): Promise<void> {
  await rm(join(dir, name), { force: true });
}

/** How old a stored image with no request must be before the start-up sweep removes it. */
export const ORPHAN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes stored images older than ORPHAN_AGE_MS that no request carries (left by a process
 * that died between storing a receipt and inserting its request). Younger ones may belong to
 * a request being inserted right now. Answers the names removed.
 */
export async function sweepOrphanImages(
  dir: string,
  referenced: (names: string[]) => Promise<Set<string>>,
  now = Date.now(),
): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [])).filter((name) => IMAGE_NAME.test(name));
  const old: string[] = [];
  for (const name of names) {
    if (now - (await stat(join(dir, name))).mtimeMs > ORPHAN_AGE_MS) old.push(name);
  }
  if (old.length === 0) return [];
  const kept = await referenced(old);
  const orphans = old.filter((name) => !kept.has(name));
  await Promise.all(orphans.map((name) => removeImage(dir, name)));
  return orphans;
}
