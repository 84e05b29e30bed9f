import { DEMO, expect, runCommand, signIn, signInWithKeyboard, submitLogin, test } from "./fixtures";

test("the Login button waits for both fields", async ({ page }) => {
  await page.goto("/login");
  await expect(page).toHaveTitle("Login - Admin");
  const login = page.getByRole("button", { name: "Login" });
  await expect(login).toBeDisabled();
  await page.getByLabel("Username").fill("admin");
  await expect(login).toBeDisabled();
  await page.getByLabel("Password").fill("x");
  await expect(login).toBeEnabled();
});

test("signs in with the keyboard and lands in the shell", async ({ page }) => {
  await signInWithKeyboard(page, DEMO.admin);
  await expect(page).toHaveTitle("Home - Admin");
  await expect(page.getByLabel("Status line")).toContainText("admin [super admin]");
  await expect(page.getByLabel("Balance")).toHaveText("bal unlimited");
});

test("a wrong password shows the server's message and stays on the login screen", async ({ page }) => {
  await submitLogin(page, { username: "admin", password: "not-the-password" });
  await expect(page.getByText("Invalid username or password")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test("a signed-out visit goes to the login screen and back where it was headed", async ({ page }) => {
  await page.goto("/change-password");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fchange-password$/);
  await page.getByLabel("Username").fill(DEMO.staff.username);
  await page.getByLabel("Password").fill(DEMO.staff.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page).toHaveTitle("Change Password - Admin");
});

test("logout returns to /login and the back button shows no signed-in page", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.keyboard.press("g");
  await page.keyboard.press("c");
  await expect(page).toHaveURL(/\/change-password$/);
  await runCommand(page, "logout");
  await expect(page).toHaveURL(/\/login$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  await expect(page.getByText("Signed in as admin")).toHaveCount(0);
  await expect(page.getByLabel("Status line")).toHaveCount(0);
});

test("logout from the sidebar ends the session upstream too", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.getByRole("button", { name: "Toggle sidebar" }).click();
  await expect(page.getByText("Hi, admin")).toBeVisible();
  await page.getByRole("navigation", { name: "Sidebar" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});

test("Ctrl+Shift+L logs out from anywhere", async ({ page }) => {
  await signIn(page, DEMO.admin);
  await page.keyboard.press("Control+Shift+L");
  await expect(page).toHaveURL(/\/login$/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login$/);
});
