/**
 * Receipt images: a data URL from the end-user API, checked by its bytes (not only its
 * label), written under the uploads directory with a random name, served to admins.
 */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { badRequest, payloadTooLarge } from "../../errors.js";

export const IMAGE_MAX_BYTES = 1024 * 1024;
export const IMAGE_MESSAGE = {
  invalid: "Image must be a PNG, JPEG, WebP or GIF data URL",
  tooLarge: "Image must be at most 1 MB",
} as const;

const TYPES = {
  png: { mime: "image/png", magic: (b: Buffer) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  jpg: { mime: "image/jpeg", magic: (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  webp: { mime: "image/webp", magic: (b: Buffer) => b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WEBP" },
  gif: { mime: "image/gif", magic: (b: Buffer) => b.toString("latin1", 0, 4) === "GIF8" },
} as const;
export type ImageExt = keyof typeof TYPES;
type Ext = ImageExt;
const EXT_OF_MIME: Record<string, Ext> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "image/gif": "gif" };

/** A stored image's name: 32 hex characters and its extension. */
export const IMAGE_NAME = /^[0-9a-f]{32}\.(png|jpg|webp|gif)$/;

/** Decodes and checks a data URL: 400 unless an image of a known type, 413 above 1 MB. */
export function decodeImage(dataUrl: string): { bytes: Buffer; ext: Ext } {
  const match = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(dataUrl);
  const ext = match ? EXT_OF_MIME[match[1]!] : undefined;
  if (!match || !ext) throw badRequest(IMAGE_MESSAGE.invalid);
  // Refuse by length before decoding.
  if (base64DecodedLength(match[2]!) > IMAGE_MAX_BYTES) throw payloadTooLarge(IMAGE_MESSAGE.tooLarge);
  const bytes = Buffer.from(match[2]!, "base64");
  if (!TYPES[ext].magic(bytes)) throw badRequest(IMAGE_MESSAGE.invalid);
  return { bytes, ext };
}

/** The bytes a base64 text decodes to (3 per 4 characters, less the padding). */
export function base64DecodedLength(base64: string): number {
  return Math.floor((base64.length * 3) / 4) - (base64.match(/=/g)?.length ?? 0);
}

/** The type of `bytes` among `allowed`, read from their first bytes (never from a name), or undefined. */
export function sniffImage(bytes: Buffer, allowed: readonly Ext[]): Ext | undefined {
  return allowed.find((ext) => TYPES[ext].magic(bytes));
}

/** Deletes a stored image; one already gone is no error. */
export async function deleteImage(dir: string, name: string): Promise<void> {
  await rm(join(dir, name), { force: true });
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
