/**
 * The settings desk's palette commands (docs/product.md §2.12): each asks its values step by step, checked by
 * the screen's own schema, confirms, and posts to the screen's action, as the screen's form does.
 */
import { problemOf } from "../lib/forms/first-issue";
import { couponBonusField, couponCodeField, SIMPLE_SETTINGS, type SimpleSettingId } from "../lib/forms/settings";
import { SCREENS, type Screen } from "../lib/screens";
import type { Command } from "./types";

/** `Set WhatsApp number…` and the like: one step per field of a SIMPLE_SETTINGS row, then confirm. */
const setSetting = (id: SimpleSettingId): Command => {
  const setting = SIMPLE_SETTINGS[id];
  const screen: Screen = SCREENS[setting.screen];
  const shape: Record<string, Parameters<typeof problemOf>[0]> = setting.schema.shape;
  return {
    id: `settings.set-${setting.screen}`,
    title: setting.command.title,
    group: "Settings",
    keywords: [...setting.command.keywords, screen.label.toLowerCase()],
    access: screen,
    extension: screen.extension,
    steps: [
      ...setting.fields.map((field) => ({
        kind: "text" as const,
        name: field.name,
        label: field.label,
        check: (value: string) => problemOf(shape[field.name]!, value),
      })),
      {
        kind: "confirm",
        name: "confirm",
        label: (answers) => `Set ${setting.fields.map((field) => `${field.label} to ${answers[field.name]}`).join(", ")}?`,
      },
    ],
    run: ({ submitAction }, answers) =>
      submitAction(screen.path, Object.fromEntries(setting.fields.map((field) => [field.name, answers[field.name] ?? ""]))),
  };
};

export const SETTINGS_COMMANDS: readonly Command[] = [
  ...(Object.keys(SIMPLE_SETTINGS) as SimpleSettingId[]).map(setSetting),
  {
    id: "settings.add-coupon",
    title: "Add coupon…",
    group: "Settings",
    keywords: ["new coupon", "code", "promotion"],
    access: SCREENS.coupons,
    steps: [
      { kind: "text", name: "couponCode", label: "Coupon Code", check: (value) => problemOf(couponCodeField, value) },
      { kind: "text", name: "bonus", label: "Bonus (%)", check: (value) => problemOf(couponBonusField, value) },
      {
        kind: "confirm",
        name: "confirm",
        label: (answers) => `Add coupon ${answers.couponCode!.trim().toUpperCase()} with a ${answers.bonus}% bonus?`,
      },
    ],
    run: ({ submitAction }, answers) => submitAction(SCREENS.coupons.path, { couponCode: answers.couponCode!, bonus: answers.bonus! }),
  },
];
