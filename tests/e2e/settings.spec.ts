/**
 * Issue 11, the settings screens against the real platform, keyboard first: each screen is reached
 * with `g` and a letter, saves with Enter and shows the spec's toast, and the saved value is what
 * the screen shows after a reload. The palette's commands run the same actions.
 */
import type { Page } from "@playwright/test";
import { DEMO, expect, runCommand, signIn, SPEC_API, test } from "./fixtures";

/** Goes to a screen with `g` and its letter (an upper-case letter is typed with Shift). */
async function goTo(page: Page, letter: string, title: string) {
  await page.keyboard.press("g");
  await page.keyboard.press(letter === letter.toUpperCase() ? `Shift+${letter}` : letter);
  await expect(page).toHaveTitle(`${title} - Admin`);
}

/** Replaces the focused field's text with the keyboard. */
async function retype(page: Page, text: string) {
  await page.keyboard.press("Control+a");
  await page.keyboard.type(text);
}

// Bonus limits are saved unchanged: the approval desk's spec reads the seeded 100 % and 1,00,000.
const SIMPLE_SCREENS = [
  { title: "Whatsapp Number", letter: "n", values: { "Whatsapp Number": "+919812345678" }, toast: "Whatsapp number updated successfully" },
  { title: "Telegram", letter: "t", values: { Telegram: "@betdesk_help" }, toast: "Telegram updated successfully" },
  { title: "Bonus", letter: "o", values: { "Bonus (%)": "7.5" }, toast: "Bonus updated successfully" },
  { title: "Main Bonus", letter: "M", values: { "Main Bonus (%)": "12" }, toast: "Bonus updated successfully" },
  { title: "Refer Bonus", letter: "f", values: { "Refer Bonus (INR)": "250" }, toast: "Bonus updated successfully" },
  {
    title: "Bonus Limits",
    letter: "L",
    values: { "Largest bonus (% of the deposit)": "100", "Largest bonus per decision (INR)": "100000" },
    toast: "Bonus limits updated successfully",
  },
] as const;

for (const screen of SIMPLE_SCREENS) {
  // Bonus limits are an extension call; every other setting is the spec's.
  test(`${screen.title} saves with the keyboard and shows its toast`, screen.title === "Bonus Limits" ? {} : SPEC_API, async ({ page }) => {
    await signIn(page, DEMO.admin);
    await goTo(page, screen.letter, screen.title);
    const form = page.getByRole("form", { name: screen.title });
    const labels = Object.keys(screen.values) as Array<keyof typeof screen.values>;
    // The form opens on its first field, holding the stored value.
    await expect(form.getByLabel(labels[0]!)).toBeFocused();
    await expect(form.getByLabel(labels[0]!)).not.toHaveValue("");
    for (const [index, label] of labels.entries()) {
      if (index > 0) await page.keyboard.press("Tab");
      await retype(page, screen.values[label]);
    }
    await page.keyboard.press("Enter");
    await expect(page.getByText(screen.toast)).toBeVisible();
    await page.reload();
    for (const label of labels) await expect(form.getByLabel(label)).toHaveValue(screen.values[label]);
  });
}

test("a setting's bad value is refused before sending, naming the field", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await goTo(page, "o", "Bonus");
  await retype(page, "150");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Bonus must be from 0 to 100")).toBeVisible();
});

test("Set WhatsApp number… asks the number, confirms and saves as the screen does", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await runCommand(page, "Set WhatsApp number");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await page.keyboard.type("12");
  await page.keyboard.press("Enter");
  await expect(palette).toContainText("Whatsapp number must be 7 to 15 digits");
  await retype(page, "+919800011122");
  await page.keyboard.press("Enter");
  await expect(palette).toContainText("Set Whatsapp Number to +919800011122?");
  await page.keyboard.press("y");
  await expect(page.getByText("Whatsapp number updated successfully")).toBeVisible();
  await goTo(page, "n", "Whatsapp Number");
  await expect(page.getByRole("textbox", { name: "Whatsapp Number" })).toHaveValue("+919800011122");
});

test("Bank Details adds and removes UPI entries; Remove is disabled on the last one", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await goTo(page, "k", "Bank Details");
  const entries = page.getByRole("group", { name: /UPI entry/ });
  await expect(entries).toHaveCount(1);
  await expect(entries.first().getByRole("button", { name: "Remove" })).toBeDisabled();

  await page.getByRole("button", { name: "Add UPI" }).press("Enter");
  await expect(entries).toHaveCount(2);
  const second = page.getByRole("group", { name: "UPI entry 2" });
  await second.getByLabel("UPI Id").fill("cashdesk@ybl");
  await second.getByLabel("Token").fill("Second UPI");
  await expect(entries.first().getByRole("button", { name: "Remove" })).toBeEnabled();
  await page.getByLabel("Account Holder").fill("Betdesk Gaming");
  await page.getByLabel("Account Holder").press("Enter");
  await expect(page.getByText("Bank details updated successfully")).toBeVisible();

  await page.reload();
  await expect(entries).toHaveCount(2);
  await expect(page.getByLabel("Account Holder")).toHaveValue("Betdesk Gaming");
  await expect(second.getByLabel("UPI Id")).toHaveValue("cashdesk@ybl");
  await second.getByRole("button", { name: "Remove" }).press("Enter");
  await expect(entries).toHaveCount(1);
  await page.getByRole("button", { name: "Save" }).press("Enter");
  await expect(page.getByText("Bank details updated successfully")).toBeVisible();
  await page.reload();
  await expect(entries).toHaveCount(1);
});

test("Coupons adds a coupon with the code upper-cased and the bonus as a percentage, also from the palette", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await goTo(page, "C", "Coupons");
  const code = `w${Date.now() % 1_000_000}`;
  await page.getByLabel("Coupon Code").fill(code);
  await page.getByLabel("Bonus (%)").fill("15");
  await page.getByLabel("Bonus (%)").press("Enter");
  await expect(page.getByText("Coupon added successfully")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${code.toUpperCase()} 15%`) })).toBeVisible();

  await runCommand(page, "Add coupon");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await page.keyboard.type(`p${code}`);
  await page.keyboard.press("Enter");
  await page.keyboard.type("2.5");
  await page.keyboard.press("Enter");
  await expect(palette).toContainText(`Add coupon P${code.toUpperCase()} with a 2.5% bonus?`);
  await page.keyboard.press("y");
  await expect(page.getByText("Coupon added successfully")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`P${code.toUpperCase()} 2.5%`) })).toBeVisible();
});

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

test("Slider uploads an image with a preview, shows it through the console, and removes it", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await goTo(page, "l", "Slider");
  const stored = page.getByRole("img", { name: /^Slider image/ });
  const before = await stored.count();
  await expect(page.getByLabel(/^Slot \d/)).toHaveCount(2); // docs/product.md §2.12: two empty slots to begin with

  await page.getByLabel("Slot 1", { exact: true }).setInputFiles({ name: "banner.png", mimeType: "image/png", buffer: PNG });
  await expect(page.getByRole("img", { name: "Preview of banner.png" })).toBeVisible();
  await page.getByRole("button", { name: "Save" }).press("Enter");
  await expect(page.getByText("Slider saved successfully")).toBeVisible();
  await expect(stored).toHaveCount(before + 1);
  // The stored image loads through the console's route (the platform's needs the token).
  const last = stored.last();
  await expect.poll(() => last.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  expect(await last.getAttribute("src")).toMatch(/^\/resources\/slider\//);

  await page.getByRole("button", { name: `Remove slider image ${before + 1}` }).press("Enter");
  await expect(page.getByText("Slider image removed successfully")).toBeVisible();
  await expect(stored).toHaveCount(before);
});

test("Slider refuses a file that is not an image before sending", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await goTo(page, "l", "Slider");
  await page.getByLabel("Slot 1", { exact: true }).setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(page.getByText("Image must be a PNG, JPEG or WebP file")).toBeVisible();
  await expect(page.getByRole("button", { name: "Save" })).toBeDisabled();
});
