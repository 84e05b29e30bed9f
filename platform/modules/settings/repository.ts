/**
 * The one settings store (migration 012): a value per key, in its wire shape. Other modules read
 * and write their settings (the default admin, the bonus limits) through these functions only.
 */
import type { BankSettings, BonusLimits, BonusSetting, ContactSetting } from "../../../protocol/wire.js";
import type { Db } from "../../db/index.js";
import type { SettingKey } from "../../db/schema.js";

/** Each key's stored value. */
export type SettingValues = {
  "bank-details": BankSettings;
  whatsapp: ContactSetting;
  telegram: ContactSetting;
  bonus: BonusSetting;
  "ref-bonus": BonusSetting;
  "main-bonus": BonusSetting;
  /** The partner that receives end users created by the super admin or staff. */
  "default-admin": { id: string };
  "bonus-limits": BonusLimits;
};

/** A setting's value (null when never set), locked until the transaction ends so concurrent updates audit in order. */
export async function lockSetting<K extends SettingKey>(db: Db, key: K): Promise<SettingValues[K] | null> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).forUpdate().executeTakeFirst();
  return (row?.value as SettingValues[K] | undefined) ?? null;
}

export async function readSetting<K extends SettingKey>(db: Db, key: K): Promise<SettingValues[K] | null> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  return (row?.value as SettingValues[K] | undefined) ?? null;
}

export async function writeSetting<K extends SettingKey>(db: Db, key: K, value: SettingValues[K]): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto("settings")
    .values({ key, value: json })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: json, updated_at: new Date() }))
    .execute();
}

export function listCoupons(db: Db) {
  return db.selectFrom("coupons").select(["id", "coupon_code", "bonus", "created_at"]).orderBy("created_at", "desc").orderBy("id", "desc").execute();
}

/** The new coupon, or undefined when its code exists. */
export function insertCoupon(db: Db, coupon: { code: string; bonus: string }) {
  return db
    .insertInto("coupons")
    .values({ coupon_code: coupon.code, bonus: coupon.bonus })
    .onConflict((oc) => oc.column("coupon_code").doNothing())
    .returning(["id", "coupon_code", "bonus", "created_at"])
    .executeTakeFirst();
}

export function listSliderImages(db: Db) {
  return db.selectFrom("slider_images").select(["id", "file_name"]).orderBy("id").execute();
}

export async function insertSliderImages(db: Db, fileNames: string[]): Promise<void> {
  await db.insertInto("slider_images").values(fileNames.map((file_name) => ({ file_name }))).execute();
}

/** Deletes a slider row; answers its file name, or undefined when there was none. */
export async function deleteSliderImage(db: Db, id: bigint): Promise<string | undefined> {
  const row = await db.deleteFrom("slider_images").where("id", "=", id).returning("file_name").executeTakeFirst();
  return row?.file_name;
}
