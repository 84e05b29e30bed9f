/**
 * Rules the console and the platform both enforce: the console checks a form before it calls,
 * the platform checks the call. Written once here so that the two cannot drift.
 */

/** A new account's username (end user, partner or staff): unique case-insensitively, checked by the platform. */
export const USERNAME = {
  min: 3,
  max: 32,
  pattern: /^[A-Za-z0-9_.-]+$/,
  lengthMessage: "Username must be 3 to 32 characters",
} as const;

/**
 * Text the platform stores (a remark, a name) holds no C0 control (NUL, tab, line break…), DEL or
 * C1 control, after trimming: the console's forms refuse one before calling, or holding, anything.
 */
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
export const CONTROL_CHARACTER_MESSAGE = "Must not contain control characters";

/** The settings desk's bounds (settings and bonus limits). */
export const SETTING_BOUNDS = {
  /** Bonus, main bonus, a coupon's bonus and the bonus limit's percentage are percentages of a deposit. */
  percent: { min: 0, max: 100 },
  /** The referral bonus is an INR amount paid to the referrer. */
  refBonusInr: { min: 0, max: 100_000 },
  /** A bonus limit's INR ceiling per decision: the platform's largest amount. */
  bonusLimitInr: { min: 0, max: 1e9 },
  upiEntries: { min: 1, max: 10 },
  sliderImageBytes: 2 * 1024 * 1024,
  sliderImagesPerCall: 4,
  sliderTypes: ["image/png", "image/jpeg", "image/webp"],
} as const;

/**
 * The success toasts of the settings desk and Admin Management (docs/product.md §5): the platform
 * answers them as `msg`, the console shows them (and checks a step's outcome by them).
 */
export const SETTINGS_TOASTS = {
  bankDetails: "Bank details updated successfully",
  whatsapp: "Whatsapp number updated successfully",
  telegram: "Telegram updated successfully",
  bonus: "Bonus updated successfully",
  bonusLimits: "Bonus limits updated successfully",
  couponAdded: "Coupon added successfully",
  sliderSaved: "Slider saved successfully",
  sliderImageRemoved: "Slider image removed successfully",
  staffAdded: "Admin added successfully",
  staffRemoved: "Admin removed successfully",
} as const;
