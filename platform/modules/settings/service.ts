/**
 * Site settings: bank details, contact numbers, bonuses, coupons and slider images. Every
 * change is written to the audit log with its value before and after, in the same transaction.
 */
import type { FastifyBaseLogger } from "fastify";
import { sql } from "kysely";
import type { Coupon, SliderImage } from "../../../protocol/wire.js";
import { SETTINGS_TOASTS } from "../../../protocol/rules.js";
import type { Db } from "../../db/index.js";
import type { SettingKey } from "../../db/schema.js";
import { conflict, notFound } from "../../errors.js";
import { recordAudit } from "../audit/repository.js";
import type { AdminAccount } from "../admins/repository.js";
import { readImage, removeImage, storeImage, type ImageExt } from "../../uploads.js";
import {
  deleteSliderImage,
  insertCoupon,
  insertSliderImages,
  listCoupons,
  listSliderImages,
  lockSetting,
  readSetting,
  writeSetting,
  type SettingValues,
} from "./repository.js";

export type { SettingValues } from "./repository.js";

export const SETTINGS_MESSAGE = {
  bankDetailsUpdated: SETTINGS_TOASTS.bankDetails,
  whatsappUpdated: SETTINGS_TOASTS.whatsapp,
  telegramUpdated: SETTINGS_TOASTS.telegram,
  bonusUpdated: SETTINGS_TOASTS.bonus,
  couponAdded: SETTINGS_TOASTS.couponAdded,
  couponExists: "Coupon already exists",
  sliderSaved: SETTINGS_TOASTS.sliderSaved,
  sliderRemoved: SETTINGS_TOASTS.sliderImageRemoved,
  sliderFull: (max: number) => `The slider holds at most ${max} images`,
  sliderImageNotFound: "Slider image not found",
} as const;

/** How many images the slider holds at most. */
export const SLIDER_MAX_IMAGES = 10;
/** Where slider images live: a folder of the uploads directory (DATA_DIR/uploads under npm start). */
export const SLIDER_FOLDER = "slider";
/** Slider image paths under the admin API. */
export const SLIDER_IMAGE_PATH = "/slider-images";

export type NewCoupon = { couponCode: string; bonus: number };
export type CheckedImage = { bytes: Buffer; ext: ImageExt };

const auditAction = (key: string) => `settings.${key}`;

export type SettingsServiceOptions = { db: Db; sliderDir: string; log: Pick<FastifyBaseLogger, "warn"> };

export function createSettingsService({ db, sliderDir, log }: SettingsServiceOptions) {
  async function get<K extends SettingKey>(key: K): Promise<SettingValues[K] | null> {
    return readSetting(db, key);
  }

  async function update<K extends SettingKey>(actor: AdminAccount, key: K, value: SettingValues[K]): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const before = await lockSetting(trx, key);
      await writeSetting(trx, key, value);
      await recordAudit(trx, { actorId: actor.id, action: auditAction(key), targetKind: "settings", targetIds: [key], change: { before, after: value } });
    });
  }

  async function coupons(): Promise<Coupon[]> {
    return (await listCoupons(db)).map((row) => ({
      _id: String(row.id),
      couponCode: row.coupon_code,
      bonus: Number(row.bonus),
      createdAt: row.created_at.toISOString(),
    }));
  }

  async function addCoupon(actor: AdminAccount, coupon: NewCoupon): Promise<{ _id: string }> {
    return db.transaction().execute(async (trx) => {
      const row = await insertCoupon(trx, { code: coupon.couponCode, bonus: coupon.bonus.toFixed(2) });
      if (!row) throw conflict(SETTINGS_MESSAGE.couponExists);
      await recordAudit(trx, { actorId: actor.id, action: auditAction("coupon"), targetKind: "settings", targetIds: ["coupons", row.id], change: { before: null, after: coupon } });
      return { _id: String(row.id) };
    });
  }

  async function slider(): Promise<SliderImage[]> {
    return (await listSliderImages(db)).map((row) => ({ _id: String(row.id), image: `${SLIDER_IMAGE_PATH}/${row.file_name}` }));
  }

  /** Stores the files first; if the rows are refused, the files go again, so no file is left unnamed. */
  async function addSlider(actor: AdminAccount, images: CheckedImage[]): Promise<void> {
    const names = await Promise.all(images.map((image) => storeImage(sliderDir, image)));
    try {
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext('betdesk.slider'))`.execute(trx);
        const before = (await listSliderImages(trx)).map((row) => row.file_name);
        if (before.length + names.length > SLIDER_MAX_IMAGES) throw conflict(SETTINGS_MESSAGE.sliderFull(SLIDER_MAX_IMAGES));
        await insertSliderImages(trx, names);
        await recordAudit(trx, { actorId: actor.id, action: auditAction("slider"), targetKind: "settings", targetIds: ["slider"], change: { before, after: [...before, ...names] } });
      });
    } catch (error) {
      await Promise.all(names.map((name) => removeImage(sliderDir, name)));
      throw error;
    }
  }

  /** Deletes the row, then the file: a file left by a crash in between is unreachable, never a broken slot. */
  async function removeSlider(actor: AdminAccount, id: bigint): Promise<void> {
    const removed = await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('betdesk.slider'))`.execute(trx);
      const before = (await listSliderImages(trx)).map((row) => row.file_name);
      const name = await deleteSliderImage(trx, id);
      if (!name) throw notFound(SETTINGS_MESSAGE.sliderImageNotFound);
      const after = before.filter((file) => file !== name);
      await recordAudit(trx, { actorId: actor.id, action: auditAction("slider"), targetKind: "settings", targetIds: ["slider"], change: { before, after } });
      return name;
    });
    // The removal is committed: a file that cannot go is logged, never a failed answer.
    await removeImage(sliderDir, removed).catch((error: unknown) => log.warn({ err: error, file: removed }, "slider image file not deleted"));
  }

  async function sliderImage(name: string): Promise<{ bytes: Buffer; mime: string }> {
    const listed = (await listSliderImages(db)).some((row) => row.file_name === name);
    if (!listed) throw notFound(SETTINGS_MESSAGE.sliderImageNotFound);
    return readImage(sliderDir, name).catch((error: unknown) => {
      // Listed but gone from disk (a DATA_DIR restored without its files): missing, not a failure.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw notFound(SETTINGS_MESSAGE.sliderImageNotFound);
      throw error;
    });
  }

  return { get, update, coupons, addCoupon, slider, addSlider, removeSlider, sliderImage };
}
