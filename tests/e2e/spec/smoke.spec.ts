/**
 * The console against an API with only the spec's calls (PLATFORM_PROFILE=spec): signing in with
 * the keyboard and reading the users list need nothing beyond the spec.
 */
import { CALLS } from "../../../protocol/calls";
import { E2E_PROJECTS } from "../../fixtures/e2e-ports";
import { DEMO, expect, signInWithKeyboard, SPEC_API, test } from "../fixtures";

test("the platform of this project answers only the spec's calls", SPEC_API, async () => {
  // An extension call answers 404 before authentication, as an unknown route; the full profile would say 401.
  const response = await fetch(`http://127.0.0.1:${E2E_PROJECTS.spec.platformPort}/api/admin${CALLS.bonusLimits.path}`);
  expect(response.status).toBe(404);
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
