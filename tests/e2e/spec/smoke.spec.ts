/**
 * The console against an API with only the spec's calls (PLATFORM_PROFILE=spec): signing in with
 * the keyboard and reading the users list need nothing beyond the spec.
 */
import { CALLS } from "../../../protocol/calls";
import { DEMO, expect, onSpecApi, platformUrl, signInWithKeyboard, SPEC_API, test } from "../fixtures";

test("the platform of this project answers only its profile's calls", SPEC_API, async () => {
  // An extension call: the spec-only API answers 404 before authentication, as an unknown route;
  // the full profile has the route, so it asks for a token first (401).
  const response = await fetch(`${platformUrl()}/api/admin${CALLS.bonusLimits.path}`);
  expect(response.status).toBe(onSpecApi() ? 404 : 401);
});

test("signs in with the keyboard and lists users", SPEC_API, async ({ page }) => {
  await signInWithKeyboard(page, DEMO.admin);
  // Wait for the shell's script (the status line's clock ticks only then) before the g keys.
  await expect(page.getByLabel("Status line")).not.toContainText("--:--:--");
  await page.keyboard.press("g");
  await page.keyboard.press("u");
  const users = page.getByRole("grid", { name: "Users" });
  await expect(users).toBeVisible();
  await expect(users.getByRole("row", { name: /user\d{4}/ }).first()).toBeVisible();
});
