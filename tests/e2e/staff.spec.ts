/**
 * Issue 11, Admin Management and staff flags in the console, against the real platform: the super
 * admin adds a staff member with only `deposits` through /admins; signed in as it, the sidebar,
 * the palette and the `g` keys offer the Deposits desk alone and /users shows Permission Denied;
 * removing it (confirmed) ends its session.
 */
import { DEMO, expect, runCommand, signIn, startSession, test } from "./fixtures";

test.describe.configure({ mode: "serial" });

const CASHIER = { username: `cashier${Date.now() % 100_000}`, password: "cashier123" };

test("the super admin adds a staff member with only deposits, by keyboard", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.keyboard.press("g");
  await page.keyboard.press("a");
  await expect(page).toHaveTitle("Admin Management - Admin");
  const form = page.getByRole("form", { name: "Add Staff" });
  const add = form.getByRole("button", { name: "Add" });
  await expect(add).toBeDisabled(); // docs/product.md §5: username and password are required
  await form.getByLabel("Username").focus();
  await page.keyboard.type(CASHIER.username);
  await page.keyboard.press("Tab");
  await page.keyboard.type(CASHIER.password);
  await page.keyboard.press("Tab"); // report
  await page.keyboard.press("Tab"); // users
  await page.keyboard.press("Tab"); // deposits
  await page.keyboard.press("Space");
  await expect(form.getByRole("switch", { name: "deposits" })).toBeChecked();
  await expect(form.getByRole("switch", { name: "users" })).not.toBeChecked();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Admin added successfully")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`${CASHIER.username} deposits`) })).toBeVisible();
});

test("a staff member with only deposits sees only the Deposits link and commands, and Permission Denied at /users", async ({ page }) => {
  await signIn(page, CASHIER);
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  const sidebar = page.getByRole("navigation", { name: "Sidebar" });
  await expect(sidebar.getByRole("link")).toHaveText(["Deposits", "Change Password"]);
  await page.getByRole("button", { name: "Toggle sidebar" }).click();

  // The palette offers the Deposits desk's commands and none of another desk's.
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await page.keyboard.type("deposit");
  await expect(palette.getByRole("option", { name: /Approve deposit…/ })).toBeVisible();
  await expect(palette.getByRole("option", { name: /Go to Deposits/ })).toBeVisible();
  await expect(palette.getByRole("option", { name: /^Deposit…/ })).toHaveCount(0);
  await page.keyboard.press("Control+a");
  await page.keyboard.type("withdraw");
  await expect(palette.getByRole("option", { name: /withdraw/i })).toHaveCount(0);
  await page.keyboard.press("Control+a");
  await page.keyboard.type("set bonus");
  await expect(palette.getByRole("option", { name: /Set bonus…/ })).toHaveCount(0);
  await page.keyboard.press("Escape");

  // `g u` is not bound for it; `g d` is.
  await page.keyboard.press("g");
  await page.keyboard.press("u");
  await expect(page).toHaveTitle("Home - Admin");
  await page.keyboard.press("g");
  await page.keyboard.press("d");
  await expect(page).toHaveTitle("Deposits - Admin");

  await page.goto("/users");
  await expect(page.getByRole("heading", { name: "Permission Denied" })).toBeVisible();
  await page.goto("/bank-details");
  await expect(page.getByRole("heading", { name: "Permission Denied" })).toBeVisible();
});

test("removing the staff member asks to confirm, then ends its session at once", async ({ page, browser }) => {
  const cashierContext = await browser.newContext();
  const cashier = await cashierContext.newPage();
  await signIn(cashier, CASHIER);

  await signIn(page, DEMO.admin);
  await runCommand(page, "Go to Admin Management");
  await expect(page).toHaveTitle("Admin Management - Admin");
  await page.getByRole("button", { name: `Remove ${CASHIER.username}` }).click();
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toContainText(`Remove staff ${CASHIER.username}? Their sessions end at once.`);
  await page.keyboard.press("y");
  await expect(page.getByText("Admin removed successfully")).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(CASHIER.username) })).toHaveCount(0);

  await cashier.goto("/deposits");
  await expect(cashier).toHaveURL(/\/login/);
  await cashierContext.close();
});

test("Admin Management is the super admin's: staff see Permission Denied and no staff commands", async ({ page }) => {
  await startSession(page, DEMO.staff);
  await page.goto("/admins");
  await expect(page.getByRole("heading", { name: "Permission Denied" })).toBeVisible();
  await page.keyboard.press("Control+k");
  await page.keyboard.type("staff");
  await expect(page.getByRole("dialog", { name: "Command palette" }).getByRole("option", { name: /Add staff…|Remove staff…/ })).toHaveCount(0);
});
