import { DEMO, expect, runCommand, signIn, submitLogin, test } from "./fixtures";

// These tests change panel1's password in turn: the second changes it back.
test.describe.configure({ mode: "serial" });
const NEW_PASSWORD = "panel-new-456";

test("change own password, then sign in with the new one", async ({ page }) => {
  const newPassword = NEW_PASSWORD;
  await signIn(page, DEMO.panel);
  await runCommand(page, "go to change password");
  await expect(page).toHaveURL(/\/change-password$/);

  const submit = page.getByRole("button", { name: "Change Password" });
  await expect(submit).toBeDisabled();
  await page.getByLabel("Old Password").focus();
  await page.keyboard.type(DEMO.panel.password);
  await page.keyboard.press("Tab");
  await page.keyboard.type(newPassword);
  await page.keyboard.press("Tab");
  await page.keyboard.type("something-else");

  // A mismatch says the spec's words and sends nothing.
  let posted = 0;
  page.on("request", (request) => {
    if (request.method() === "POST") posted += 1;
  });
  await page.keyboard.press("Enter");
  await expect(page.getByText("Password and confirm password do not match")).toBeVisible();
  expect(posted).toBe(0);

  await page.getByLabel("Confirm Password").fill("");
  await page.getByLabel("Confirm Password").focus();
  await page.keyboard.type(newPassword);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Password changed successfully")).toBeVisible();
  await expect(page.getByLabel("Old Password")).toHaveValue("");

  await runCommand(page, "logout");
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, DEMO.panel);
  await expect(page.getByText("Invalid username or password")).toBeVisible();
  await signIn(page, { username: DEMO.panel.username, password: newPassword });
});

test("change own password from the palette, step by step; other sign-ins end", async ({ page, browser }) => {
  // A second operator session of the same account, in another browser.
  const elsewhere = await (await browser.newContext()).newPage();
  await signIn(elsewhere, { username: DEMO.panel.username, password: NEW_PASSWORD });
  await signIn(page, { username: DEMO.panel.username, password: NEW_PASSWORD });
  await runCommand(page, "change password");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toContainText("Change password… › Old Password 1/3");
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press("Enter");
  await expect(palette).toContainText("New Password 2/3");
  await page.keyboard.type(DEMO.panel.password);
  await page.keyboard.press("Enter");
  await page.keyboard.type("typo");
  await page.keyboard.press("Enter");
  await expect(palette.getByRole("alert")).toHaveText("Password and confirm password do not match");
  // Backspace on an empty answer goes back a step.
  await page.keyboard.press("Backspace");
  await expect(palette).toContainText("New Password 2/3");
  await page.keyboard.type(DEMO.panel.password);
  await page.keyboard.press("Enter");
  await page.keyboard.type(DEMO.panel.password);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Password changed successfully")).toBeVisible();
  await expect(palette).toHaveCount(0);

  // The platform revoked the other session: its next step lands on the login screen.
  await elsewhere.keyboard.press("g");
  await elsewhere.keyboard.press("c");
  await expect(elsewhere).toHaveURL(/\/login/);
  await expect(elsewhere.getByRole("button", { name: "Login" })).toBeVisible();
  await elsewhere.context().close();

  await runCommand(page, "logout");
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, DEMO.panel);
});

test("a wrong old password is refused with the server's message", async ({ page }) => {
  await signIn(page, DEMO.staff);
  await page.keyboard.press("g");
  await page.keyboard.press("c");
  await page.getByLabel("Old Password").fill("wrong-old");
  await page.getByLabel("New Password").fill("whatever-1");
  await page.getByLabel("Confirm Password").fill("whatever-1");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Current password is incorrect")).toBeVisible();
});
