/**
 * Site settings (docs/product.md §2.12, §7.2): the super admin or staff holding `settings`; partners and
 * other staff get 403 before the body is read. Bodies are strict: an unknown field is refused.
 */
import { join } from "node:path";
import { CALLS } from "../../../protocol/calls.js";
import { SETTING_BOUNDS } from "../../../protocol/rules.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { SettingKey } from "../../db/schema.js";
import { payloadTooLarge } from "../../errors.js";
import { authenticated, requireStaffFlag } from "../auth/access.js";
import type { ZodTypeProvider } from "../../plugins/validation.js";
import { Decimal2, Id, Text } from "../../validation/schemas.js";
import { base64DecodedLength, checkImage, IMAGE_HEADERS, IMAGE_NAME, type ImageExt } from "../../uploads.js";
import { createSettingsService, SETTINGS_MESSAGE, SLIDER_FOLDER, type CheckedImage, type SettingValues } from "./service.js";

const UpiEntry = z
  .object({
    value: Text({ min: 5, max: 100 }).pipe(z.string().regex(/^[A-Za-z0-9._-]{2,}@[A-Za-z0-9]{2,}$/, "Must be a UPI id such as name@bank")),
    token: Text({ max: 200 }),
  })
  .strict();

const BankSettingsBody = z
  .object({
    bankName: Text({ min: 2, max: 100 }),
    holder: Text({ min: 2, max: 100 }),
    accNo: z.string().trim().regex(/^[A-Za-z0-9]{6,34}$/, "Must be 6 to 34 letters or digits"),
    ifsc: z.string().trim().toUpperCase().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, "Must be an IFSC code such as SBIN0001234"),
    // Empty: the site takes no USDT.
    usdt: z.string().trim().regex(/^([A-Za-z0-9]{26,100})?$/, "Must be empty or a wallet address of 26 to 100 letters or digits"),
    upiId: z
      .array(UpiEntry)
      .min(SETTING_BOUNDS.upiEntries.min, "At least one UPI entry is required")
      .max(SETTING_BOUNDS.upiEntries.max, `At most ${SETTING_BOUNDS.upiEntries.max} UPI entries`),
  })
  .strict();

const WhatsappBody = z.object({ number: z.string().trim().regex(/^\+?[0-9]{7,15}$/, "Must be 7 to 15 digits, optionally after +") }).strict();
// A Telegram handle, link or number: free text, bounded.
const TelegramBody = z.object({ number: Text({ min: 1, max: 100 }) }).strict();
const PercentBonusBody = z.object({ bonus: Decimal2(SETTING_BOUNDS.percent) }).strict();
const RefBonusBody = z.object({ bonus: Decimal2(SETTING_BOUNDS.refBonusInr) }).strict();

const CouponBody = z
  .object({
    couponCode: z.string().trim().toUpperCase().regex(/^[A-Z0-9]{3,32}$/, "Must be 3 to 32 letters or digits"),
    bonus: Decimal2({ min: 0, max: 100, aboveMin: true }),
  })
  .strict();

const SLIDER_TYPES: readonly ImageExt[] = ["png", "jpg", "webp"];
const MAX_BASE64_CHARS = Math.ceil(SETTING_BOUNDS.sliderImageBytes / 3) * 4;
// The images, base64 inside JSON inside the envelope's base64: 16/9 of their bytes, plus room.
const SLIDER_BODY_LIMIT = Math.ceil((SETTING_BOUNDS.sliderImagesPerCall * SETTING_BOUNDS.sliderImageBytes * 16) / 9) + 64 * 1024;

const SliderBody = z
  .object({
    images: z
      .array(
        z
          .object({
            // Size and type are checked by checkSliderImages.
            image: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "Must be base64 without a data-URL prefix"),
            // Informational only: the type is read from the bytes.
            ext: z.string().max(10),
          })
          .strict(),
      )
      .min(1, "At least one image is required")
      .max(SETTING_BOUNDS.sliderImagesPerCall, `At most ${SETTING_BOUNDS.sliderImagesPerCall} images per call`),
  })
  .strict();

/** Each image's bytes and type: 413 above 2 MB, 400 unless a whole PNG, JPEG or WebP within the size per side (checkImage). */
function checkSliderImages(images: { image: string }[]): CheckedImage[] {
  return images.map(({ image }, index) => {
    const field = `images.${index}.image`;
    if (image.length > MAX_BASE64_CHARS || base64DecodedLength(image) > SETTING_BOUNDS.sliderImageBytes) {
      throw payloadTooLarge(`${field}: Image must be at most 2 MB`);
    }
    const bytes = Buffer.from(image, "base64");
    return { bytes, ext: checkImage(bytes, SLIDER_TYPES, { field, notType: "Image must be a PNG, JPEG or WebP file" }) };
  });
}

const IdParams = z.object({ id: Id });
const ImageParams = z.object({ name: z.string().regex(IMAGE_NAME, "Invalid image name") });

/** The settings whose GET answers what one POST stores. Bank details also answer the corrected spelling. */
const SIMPLE_SETTINGS: { key: SettingKey; body: z.ZodTypeAny; paths: string[]; msg: string }[] = [
  { key: "bank-details", body: BankSettingsBody, paths: [CALLS.updateBankDetails.path, CALLS.updateBankDetailsCorrected.path], msg: SETTINGS_MESSAGE.bankDetailsUpdated },
  { key: "whatsapp", body: WhatsappBody, paths: [CALLS.updateWhatsapp.path], msg: SETTINGS_MESSAGE.whatsappUpdated },
  { key: "telegram", body: TelegramBody, paths: [CALLS.updateTelegram.path], msg: SETTINGS_MESSAGE.telegramUpdated },
  { key: "bonus", body: PercentBonusBody, paths: [CALLS.updateBonus.path], msg: SETTINGS_MESSAGE.bonusUpdated },
  { key: "main-bonus", body: PercentBonusBody, paths: [CALLS.updateMainBonus.path], msg: SETTINGS_MESSAGE.bonusUpdated },
  { key: "ref-bonus", body: RefBonusBody, paths: [CALLS.updateRefBonus.path], msg: SETTINGS_MESSAGE.bonusUpdated },
];

export default async function settingsRoutes(app: FastifyInstance, { uploadsDir }: { uploadsDir: string }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const settings = createSettingsService({ db: app.db, sliderDir: join(uploadsDir, SLIDER_FOLDER), log: app.log });
  const desk = { onRequest: requireStaffFlag("settings") };

  for (const { key, body, paths, msg } of SIMPLE_SETTINGS) {
    api.get(`/b2c/${key}`, desk, async (_request, reply) => reply.ok(await settings.get(key)));
    for (const path of paths) {
      api.post(path, { ...desk, schema: { body } }, async (request, reply) => {
        await settings.update(authenticated(request).admin, key, request.body as SettingValues[typeof key]);
        return reply.ok(null, msg);
      });
    }
  }

  api.get(CALLS.coupons.path, desk, async (_request, reply) => reply.ok(await settings.coupons()));

  api.post(CALLS.addCoupon.path, { ...desk, schema: { body: CouponBody } }, async (request, reply) => {
    return reply.ok(await settings.addCoupon(authenticated(request).admin, request.body), SETTINGS_MESSAGE.couponAdded);
  });

  api.get(CALLS.slider.path, desk, async (_request, reply) => reply.ok(await settings.slider()));

  api.post(CALLS.addSlider.path, { ...desk, bodyLimit: SLIDER_BODY_LIMIT, schema: { body: SliderBody } }, async (request, reply) => {
    await settings.addSlider(authenticated(request).admin, checkSliderImages(request.body.images));
    return reply.ok(null, SETTINGS_MESSAGE.sliderSaved);
  });

  api.get(CALLS.removeSlider.path, { ...desk, schema: { params: IdParams } }, async (request, reply) => {
    await settings.removeSlider(authenticated(request).admin, request.params.id);
    return reply.ok(null, SETTINGS_MESSAGE.sliderRemoved);
  });

  // A file, not the envelope: the console serves it to an <img> as it comes.
  api.get(CALLS.sliderImage.path, { ...desk, schema: { params: ImageParams } }, async (request, reply) => {
    const image = await settings.sliderImage(request.params.name);
    return reply.type(image.mime).headers(IMAGE_HEADERS).send(image.bytes);
  });
}
