/**
 * The palette's history and `.` repeat (issue 32, docs/ux.md "Palette"), keyboard only, against
 * the real platform: `↑` in the empty palette brings back the last deposit with its answers, Enter
 * re-opens it at its confirmation, Backspace walks back to the amount, and the changed amount moves
 * once; `.` on the users list repeats the last deposit on the cursor row, and says so when nothing
 * was run yet; the key help lists both.
 */
import { balancesOf, DEMO, depositFromPalette, expect, openPalette, signIn, startSession, test } from "./fixtures";

// Seeded users no other scenario touches.
const CHANGED = "user0143";
const FIRST = "user0144";
const REPEATED = "user0145";


test("↑ brings back the last deposit; Enter lands at its confirmation, Backspace reaches the amount, the new amount moves once @spec", async ({ page }) => {
  const before = (await balancesOf([CHANGED])).get(CHANGED)!;
  await signIn(page, DEMO.admin);
  await depositFromPalette(page, CHANGED, "5", "history");
  await expect.poll(async () => (await balancesOf([CHANGED])).get(CHANGED)).toBe(before + 5);

  await openPalette(page);
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await page.keyboard.press("ArrowUp");
  await expect(palette.getByRole("option", { name: `Deposit… · ${CHANGED} · 5 · "history"` })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(palette.getByText(`Deposit 5 to ${CHANGED}?`)).toBeVisible();
  await expect(palette.getByRole("button", { name: "y Yes" })).toBeFocused();
  await page.keyboard.press("Backspace");
  await expect(palette.getByRole("textbox", { name: "Remark" })).toBeFocused();
  await page.keyboard.press("Backspace");
  await expect(palette.getByRole("textbox", { name: "Amount" })).toBeFocused();
  await page.keyboard.type("7");
  await page.keyboard.press("Enter");
  await page.keyboard.type("history");
  await page.keyboard.press("Enter");
  await expect(palette.getByText(`Deposit 7 to ${CHANGED}?`)).toBeVisible();
  await page.keyboard.press("y");
  await expect(palette).toHaveCount(0);
  await expect.poll(async () => (await balancesOf([CHANGED])).get(CHANGED)).toBe(before + 5 + 7);
});

test("`.` on the users list repeats the last deposit on the cursor row, and says so when nothing was run; `?` lists both keys @spec", async ({ page }) => {
  const before = await balancesOf([FIRST, REPEATED]);
  await startSession(page, DEMO.admin);
  await page.goto(`/users?search=${REPEATED}`);
  const row = page.getByRole("row", { name: new RegExp(REPEATED) });
  await expect(row).toHaveAttribute("data-cursor", "");
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keys" });
  await expect(help.getByRole("row", { name: /Repeat your last row command here/ })).toBeVisible();
  await expect(help.getByRole("row", { name: /in an empty palette: your last commands/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);
  await page.keyboard.press(".");
  await expect(page.getByText("Nothing to repeat: no row command run yet")).toBeVisible();

  await depositFromPalette(page, FIRST, "3", "repeat");
  await page.keyboard.press(".");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette.getByText(`Deposit 3 to ${REPEATED}?`)).toBeVisible();
  await page.keyboard.press("y");
  await expect(palette).toHaveCount(0);
  await expect.poll(async () => Object.fromEntries(await balancesOf([FIRST, REPEATED]))).toEqual({
    [FIRST]: before.get(FIRST)! + 3,
    [REPEATED]: before.get(REPEATED)! + 3,
  });
});
