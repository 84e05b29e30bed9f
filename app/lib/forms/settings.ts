/**
 * The settings forms (docs/product.md §2.12, §5), one zod schema each, checked by the screen, the palette's
 * steps and the action alike, within the bounds the platform enforces too (protocol/rules.ts).
 */
import { z } from "zod";
import { SETTING_BOUNDS } from "../../../protocol/rules";
import { SETTINGS_MESSAGES } from "../constants";
import type { ScreenId } from "../screens";

/** A typed number with at most 2 decimals, from `min` (or above it) to `max`, as the platform's Decimal2. */
export const decimalField = (name: string, { min, max }: { min: number; max: number }, aboveMin = false) =>
  z
    .string()
    .trim()
    .min(1, `${name} is required`)
    .regex(/^\d+(\.\d{1,2})?$/, `${name} must be a number with at most 2 decimals`)
    .transform(Number)
    .refine(
      (value) => (aboveMin ? value > min : value >= min) && value <= max,
      aboveMin ? `${name} must be above ${min} and at most ${max.toLocaleString("en-IN")}` : `${name} must be from ${min} to ${max.toLocaleString("en-IN")}`,
    );

const text = (name: string, { min, max }: { min: number; max: number }) =>
  z
    .string()
    .trim()
    .min(min, min === 1 ? `${name} is required` : `${name} must be ${min} to ${max} characters`)
    .max(max, `${name} must be ${min} to ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, `${name} must not contain control characters`);

export const whatsappField = z.string().trim().regex(/^\+?[0-9]{7,15}$/, "Whatsapp number must be 7 to 15 digits, optionally after +");
export const telegramField = text("Telegram", { min: 1, max: 100 });
export const percentBonusField = decimalField("Bonus", SETTING_BOUNDS.percent);
export const refBonusField = decimalField("Refer bonus", SETTING_BOUNDS.refBonusInr);

type SettingField = { name: string; label: string; inputMode?: "decimal" };

/** A bonus setting: one `bonus` number, saved with the spec's "Bonus updated successfully". */
const bonusSetting = <Screen extends ScreenId, Read extends string, Update extends string>(
  screen: Screen,
  read: Read,
  update: Update,
  field: ReturnType<typeof decimalField>,
  label: string,
  command: { title: string; keywords: readonly string[] },
) => ({
  saved: SETTINGS_MESSAGES.bonusSaved,
  screen,
  read,
  update,
  schema: z.object({ bonus: field }),
  fields: [{ name: "bonus", label, inputMode: "decimal" }] as const,
  command,
});

/**
 * The settings that are one form of plain fields: the screen, its calls, its fields, its schema and
 * the palette command that sets it. Each screen, its action and its command read this row.
 */
export const SIMPLE_SETTINGS = {
  whatsapp: {
    saved: SETTINGS_MESSAGES.whatsappSaved,
    screen: "whatsapp-number",
    read: "whatsapp",
    update: "updateWhatsapp",
    schema: z.object({ number: whatsappField }),
    fields: [{ name: "number", label: "Whatsapp Number" }],
    command: { title: "Set WhatsApp number…", keywords: ["contact", "phone"] },
  },
  telegram: {
    saved: SETTINGS_MESSAGES.telegramSaved,
    screen: "telegram",
    read: "telegram",
    update: "updateTelegram",
    schema: z.object({ number: telegramField }),
    fields: [{ name: "number", label: "Telegram" }],
    command: { title: "Set Telegram…", keywords: ["contact", "link", "handle"] },
  },
  bonus: bonusSetting("bonus", "bonus", "updateBonus", percentBonusField, "Bonus (%)", { title: "Set bonus…", keywords: ["deposit bonus", "percent"] }),
  mainBonus: bonusSetting("main-bonus", "mainBonus", "updateMainBonus", decimalField("Main bonus", SETTING_BOUNDS.percent), "Main Bonus (%)", {
    title: "Set main bonus…",
    keywords: ["deposit bonus", "percent"],
  }),
  refBonus: bonusSetting("ref-bonus", "refBonus", "updateRefBonus", refBonusField, "Refer Bonus (INR)", {
    title: "Set refer bonus…",
    keywords: ["referral", "ref bonus"],
  }),
  bonusLimits: {
    saved: SETTINGS_MESSAGES.bonusLimitsSaved,
    screen: "bonus-limits",
    read: "bonusLimits",
    update: "updateBonusLimits",
    schema: z.object({
      maxPercent: decimalField("Percentage limit", SETTING_BOUNDS.percent),
      maxInr: decimalField("INR limit", SETTING_BOUNDS.bonusLimitInr),
    }),
    fields: [
      { name: "maxPercent", label: "Largest bonus (% of the deposit)", inputMode: "decimal" },
      { name: "maxInr", label: "Largest bonus per decision (INR)", inputMode: "decimal" },
    ],
    command: { title: "Set bonus limits…", keywords: ["ceiling", "maximum", "cap"] },
  },
} as const satisfies Record<
  string,
  {
    saved: string;
    screen: ScreenId;
    read: string;
    update: string;
    schema: z.AnyZodObject;
    fields: readonly SettingField[];
    command: { title: string; keywords: readonly string[] };
  }
>;

export type SimpleSettingId = keyof typeof SIMPLE_SETTINGS;

/** A setting's stored values as its form shows them (numbers as typed text). */
export const asFormValues = (values: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value ?? "")]));

const upiEntry = z.object({
  value: text("UPI id", { min: 5, max: 100 }).pipe(z.string().regex(/^[A-Za-z0-9._-]{2,}@[A-Za-z0-9]{2,}$/, "UPI id must look like name@bank")),
  token: text("UPI token", { min: 0, max: 200 }),
});

/** Bank Details: the bank fields and 1–10 UPI entries (docs/product.md §5: the last entry cannot be removed). */
export const bankDetailsSchema = z.object({
  bankName: text("Bank name", { min: 2, max: 100 }),
  holder: text("Account holder", { min: 2, max: 100 }),
  accNo: z.string().trim().regex(/^[A-Za-z0-9]{6,34}$/, "Account number must be 6 to 34 letters or digits"),
  ifsc: z.string().trim().toUpperCase().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, "IFSC must look like SBIN0001234"),
  usdt: z.string().trim().regex(/^([A-Za-z0-9]{26,100})?$/, "USDT address must be empty or 26 to 100 letters or digits"),
  upiId: z
    .array(upiEntry)
    .min(SETTING_BOUNDS.upiEntries.min, "At least one UPI entry is required")
    .max(SETTING_BOUNDS.upiEntries.max, `At most ${SETTING_BOUNDS.upiEntries.max} UPI entries`),
});

/** Reads the posted Bank Details form: the repeated `upiValue` and `upiToken` fields, paired in order. */
export function bankDetailsInput(form: FormData): Record<string, unknown> {
  const values = form.getAll("upiValue").map(String);
  const tokens = form.getAll("upiToken").map(String);
  return { ...Object.fromEntries(form), upiId: values.map((value, index) => ({ value, token: tokens[index] ?? "" })) };
}

/** docs/product.md §5: code and bonus required, the code upper-cased; the bonus is a percentage above 0. */
export const couponCodeField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{3,32}$/, "Coupon code must be 3 to 32 letters or digits");
export const couponBonusField = decimalField("Coupon bonus", SETTING_BOUNDS.percent, true);
export const couponSchema = z.object({ couponCode: couponCodeField, bonus: couponBonusField });

/** The Slider screen's two actions: upload images (base64 without the data-URL prefix) or remove one. */
export const sliderSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("upload"),
    images: z
      .array(z.object({ image: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "Image must be base64"), ext: z.string().max(10) }))
      .min(1, "Choose an image first")
      .max(SETTING_BOUNDS.sliderImagesPerCall, `At most ${SETTING_BOUNDS.sliderImagesPerCall} images at a time`),
  }),
  z.object({ intent: z.literal("remove"), id: z.string().regex(/^\d{1,19}$/, "Unknown slider image") }),
]);

/** The problem with a chosen file before it is read (the platform checks the bytes again). */
export function sliderFileProblem(file: { type: string; size: number }): string | null {
  if (!(SETTING_BOUNDS.sliderTypes as readonly string[]).includes(file.type)) return "Image must be a PNG, JPEG or WebP file";
  if (file.size > SETTING_BOUNDS.sliderImageBytes) return "Image must be at most 2 MB";
  return null;
}
