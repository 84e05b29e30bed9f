import { DEMO, expect, runCommand, signIn, test } from "./fixtures";

const SPEC_LINKS = [
  "Report V1",
  "Report V2",
  "Users",
  "Panels",
  "Deposits",
  "Withdrawals",
  "Bank Details",
  "Whatsapp Number",
  "Slider",
  "Main Bonus",
  "Bonus",
  "Refer Bonus",
  "Market Analysis",
  "Pending Sport Bets",
  "Change Password",
];

test.beforeEach(async ({ page }) => {
  await signIn(page, DEMO.admin);
});

test("Ctrl+K, type, Enter navigates", async ({ page }) => {
  await runCommand(page, "go to change");
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Change Password - Admin");
  await expect(page).toHaveTitle("Change Password - Admin");
});

test("the palette opens with ':' and shows each command's keys; Esc closes it", async ({ page }) => {
  await page.keyboard.press(":");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toBeVisible();
  await expect(palette.locator('[data-command="go.home"]')).toContainText("g");
  await page.keyboard.type(">zzzz");
  await expect(palette.getByText("No results")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(palette).toHaveCount(0);
});

test("g then a letter navigates", async ({ page }) => {
  await page.keyboard.press("g");
  await expect(page.getByLabel("Status line")).toContainText("g-");
  await page.keyboard.press("c");
  await expect(page).toHaveURL(/\/change-password$/);
  await page.keyboard.press("g");
  await page.keyboard.press("h");
  await expect(page).toHaveURL(/\/$/);
  await expect(page).toHaveTitle("Home - Admin");
});

test("? shows the key map, Esc closes it", async ({ page }) => {
  await page.keyboard.press("?");
  const help = page.getByRole("dialog", { name: "Keys" });
  await expect(help).toBeVisible();
  await expect(help).toContainText("Go to Home");
  await expect(help).toContainText("Ctrl+K");
  await page.keyboard.press("Escape");
  await expect(help).toHaveCount(0);
});

test("keys typed into a text field stay in the field", async ({ page }) => {
  await page.keyboard.press("g");
  await page.keyboard.press("c");
  await page.getByLabel("Old Password").focus();
  await page.keyboard.type("gh?:");
  await expect(page).toHaveURL(/\/change-password$/);
  await expect(page.getByLabel("Old Password")).toHaveValue("gh?:");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("the sidebar has exactly the spec's links, greets the admin and closes on navigation", async ({ page }) => {
  const toggle = page.getByRole("button", { name: "Toggle sidebar" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.focus();
  await page.keyboard.press("Enter");
  const sidebar = page.getByRole("navigation", { name: "Sidebar" });
  await expect(sidebar.getByText("Hi, admin")).toBeVisible();
  await expect(sidebar.getByRole("link")).toHaveText(SPEC_LINKS);
  await sidebar.getByRole("link", { name: "Change Password" }).click();
  await expect(page).toHaveTitle("Change Password - Admin");
  await expect(sidebar).toBeHidden();
});

test("an unknown address shows the not-found page inside the shell", async ({ page }) => {
  await page.goto("/no-such-screen");
  await expect(page.getByRole("heading", { name: "Not Found", exact: true })).toBeVisible();
  await expect(page).toHaveTitle("Not Found - Admin");
  await expect(page.getByLabel("Status line")).toBeVisible();
});

test("a cross-site POST is refused", async ({ page }) => {
  const status = await page.evaluate(async () => {
    const response = await fetch("/session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "signOut" }),
      referrerPolicy: "no-referrer",
    });
    return response.status;
  });
  // Same-origin fetch sends Origin, so this one is allowed; a request naming another origin is not.
  expect(status).toBe(200);
  const forged = await page.request.post("/session", {
    headers: { Origin: "http://evil.example", "Content-Type": "application/json" },
    data: { intent: "signOut" },
  });
  expect(forged.status()).toBe(403);
});
