/**
 * The account desk (issue 3), keyboard only, against the real platform: create a user with the
 * palette, deposit to it, switch its Bet off, find it with @, read its login logs, a partner's
 * view of its own users, and a bulk deposit.
 */
import { bulkDepositToFirst, DEMO, endUser, expect, openPalette, runCommand, signIn, SPEC_API, startSession, test } from "./fixtures";

const NEW_USER = `e2e${Date.now().toString(36)}`;

test.describe.configure({ mode: "serial" });

test("a partner creates a user with the palette, deposits to it step by step, switches its Bet off", SPEC_API, async ({ page }) => {
  await signIn(page, DEMO.panel);
  const before = await page.getByLabel("Balance").textContent();

  await runCommand(page, "add user");
  const dialog = page.getByRole("dialog", { name: "Add User" });
  await expect(dialog).toBeVisible();
  const add = dialog.getByRole("button", { name: "Add" });
  await expect(add).toBeDisabled();
  await dialog.getByLabel("Username").focus();
  await page.keyboard.type(NEW_USER);
  await page.keyboard.press("Tab");
  await page.keyboard.type("9812345678");
  await page.keyboard.press("Tab");
  await page.keyboard.type("pass1234");
  await page.keyboard.press("Tab");
  await page.keyboard.type("pass1234");
  await expect(add).toBeEnabled();
  await page.keyboard.press("Enter");
  await expect(page.getByText("User added successfully")).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await runCommand(page, "deposit");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toContainText("User or panel");
  await page.keyboard.type(NEW_USER);
  await expect(palette.getByRole("option", { name: new RegExp(NEW_USER) })).toBeVisible();
  await page.keyboard.press("Enter");
  await page.keyboard.type("250.50");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter"); // no remark
  await expect(palette).toContainText(`Deposit 250.50 to ${NEW_USER}?`);
  await page.keyboard.press("y");
  await expect(page.getByText("Deposit added successfully")).toBeVisible();
  await expect(page.getByLabel("Balance")).not.toHaveText(before!);
  expect(await page.getByLabel("Balance").textContent()).toBe(
    `bal ${new Intl.NumberFormat("en-IN", { minimumFractionDigits: 2 }).format(
      Number(before!.replace(/[^\d.]/g, "")) - 250.5,
    )}`,
  );

  await runCommand(page, "toggle bet");
  await page.keyboard.type(NEW_USER);
  await expect(palette.getByRole("option", { name: new RegExp(NEW_USER) })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Permissions saved successfully")).toBeVisible();

  // Find it with @, which opens the list on it; its row shows the deposit; its panel the switch.
  await openPalette(page);
  await page.keyboard.type(`@${NEW_USER}`);
  await expect(palette.getByRole("option", { name: new RegExp(NEW_USER) })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/users\\?search=${NEW_USER}`));
  const row = page.getByRole("row", { name: new RegExp(NEW_USER) });
  await expect(row).toContainText("250.50");
  await page.keyboard.press("Enter");
  const panel = page.getByRole("region", { name: "Row panel" });
  await expect(panel.getByRole("switch", { name: "Bet" })).not.toBeChecked();
  await expect(panel.getByRole("switch", { name: "Login" })).toBeChecked();
});

test("the row panel shows the user's login logs with device and browser", async ({ page }) => {
  await endUser(NEW_USER, "pass1234", "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1");
  await signIn(page, DEMO.panel);
  await runCommand(page, "login logs");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await page.keyboard.type(NEW_USER);
  await expect(palette.getByRole("option", { name: new RegExp(NEW_USER) })).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/users\\?search=${NEW_USER}&open=\\d+&logs=1`));
  const logs = page.getByRole("region", { name: "Login logs" });
  await expect(logs).toContainText("127.0.0.1");
  await expect(logs).toContainText("iOS");
  await expect(logs).toContainText("Safari");
});

test("a partner sees only its own users", async ({ page }) => {
  await startSession(page, DEMO.panel);
  await page.goto("/users?search=user0002");
  await expect(page.getByText("No users match “user0002”")).toBeVisible();
  await page.goto("/users?search=user0001");
  await expect(page.getByRole("row", { name: /user0001/ })).toBeVisible();
  // Another panel's subtree is refused outright.
  await page.goto("/users/1");
  await expect(page.getByRole("heading", { name: "Permission Denied" })).toBeVisible();
});

test("a row's Bets link opens the user's bet history within the page, with no document load", async ({ page }) => {
  await startSession(page, DEMO.admin);
  await page.goto("/users?search=user0001");
  await page.evaluate(() => Object.assign(window, { stayed: true }));
  await page.getByRole("row", { name: /user0001/ }).getByRole("link", { name: "Bets" }).click();
  await expect(page).toHaveURL(/\/users\/bets\?user=\d+&username=user0001$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Bet History");
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
});

test("a bulk deposit to 20 users shows progress and ends with 20 credited", async ({ page }) => {
  await startSession(page, DEMO.admin);
  await page.goto("/users?search=user0&orderBy=username&isAcc=true");
  const first = page.locator("[data-table-row]").first();
  await expect(first).toContainText("user0001");
  const balanceOf = async (index: number) =>
    Number(((await page.locator("[data-table-row]").nth(index).locator("[role=gridcell]").nth(5).textContent()) ?? "").replace(/,/g, ""));
  const before = await balanceOf(0);

  const bulk = await bulkDepositToFirst(page, 20, "10");
  await expect(bulk).toContainText("Deposit 10.00 to each of 20 users (total 200.00)?");
  await page.keyboard.press("y");
  await expect(bulk).toContainText("20 done · 0 failed · 0 remaining", { timeout: 20_000 });
  await expect(bulk.getByRole("button", { name: "Close" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(bulk).toHaveCount(0);
  await expect.poll(() => balanceOf(0)).toBeCloseTo(before + 10, 2);
});

test("Download Users saves the list as CSV", async ({ page }) => {
  await startSession(page, DEMO.admin);
  await page.goto("/users?search=user000");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download Users" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^users-\d{8}\.csv$/);
  const lines = (await (await download.createReadStream()).toArray()).join("").trim().split("\n");
  expect(lines[0]).toContain("Username");
  expect(lines.slice(1).every((line) => line.includes("user000"))).toBe(true);
  expect(lines).toHaveLength(10);
});

test("role 1 adds a panel and makes it the default admin with its MD button", async ({ page }) => {
  const panelName = `p${Date.now().toString(36)}`;
  await signIn(page, DEMO.admin);
  await runCommand(page, "add panel");
  const dialog = page.getByRole("dialog", { name: "Add Panel" });
  await dialog.getByLabel("Username").fill(panelName);
  await dialog.getByLabel("Password", { exact: true }).fill("panel-pass");
  await dialog.getByLabel("Confirm Password").fill("panel-pass");
  await dialog.getByLabel("Role").selectOption({ label: "Master" });
  const add = dialog.getByRole("button", { name: "Add" });
  for (const flag of ["cricket", "football", "tennis", "bookmaker", "fancy"]) {
    await dialog.getByLabel(`${flag} share`).fill("50");
  }
  await expect(add).toBeDisabled(); // docs/product.md §5: at least 6 shares
  await dialog.getByLabel("casino share").fill("40");
  await expect(add).toBeEnabled();
  await add.press("Enter");
  await expect(page.getByText("User added successfully")).toBeVisible();
  await expect(page).not.toHaveURL(/new=1/); // the dialog's own navigation has finished

  await expect(page.getByText("default admin: panel1")).toBeVisible();
  const confirmation = page.getByRole("dialog", { name: "Command palette" });
  await page.getByRole("row", { name: new RegExp(panelName) }).getByRole("button", { name: "MD" }).click();
  await confirmation.getByRole("button", { name: "Yes" }).click(); // the MD button confirms (issue 8)
  await expect(page.getByText("Default admin changed successfully")).toBeVisible();
  await expect(page.getByText(`default admin: ${panelName}`)).toBeVisible();
  await page.getByRole("row", { name: /panel1/ }).getByRole("button", { name: "MD" }).click();
  await confirmation.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("default admin: panel1")).toBeVisible();
});
