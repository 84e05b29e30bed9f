/**
 * What the console does where the operator's API lacks an extension (docs/protocol.md "Spec calls
 * and extensions"), against the spec-only API only: it says so plainly, and once it has seen the
 * lack, the palette shows the command disabled with the reason instead of failing again.
 */
import { DEMO, expect, onSpecApi, runCommand, signIn, SPEC_API, test } from "../fixtures";

const LACK = "The operator's API lacks this extension: POST /resettle-bet answered 404";

test("Resettle bet… against an API without /resettle-bet says the API lacks it, then shows disabled with the reason", SPEC_API, async ({ page }) => {
  test.skip(!onSpecApi(), "the full platform has the extension");
  await signIn(page, DEMO.admin);
  await runCommand(page, "Resettle bet");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  for (const answer of ["1", "fail"]) {
    await page.keyboard.type(answer);
    await page.keyboard.press("Enter");
  }
  await expect(palette).toContainText("Resettle bet 1 as");
  await page.keyboard.press("y");
  await expect(page.getByText(LACK).first()).toBeVisible();
  await page.keyboard.press("Escape");

  // The signed-in layout learns it on its next load: the command stays listed, disabled, with the reason.
  await page.reload();
  // A key pressed while the page still hydrates makes React start over (errors 421, 345): wait for its code.
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("Control+k");
  await expect(palette).toBeVisible();
  await page.keyboard.type("Resettle bet");
  const option = palette.getByRole("option", { name: /Resettle bet…/ });
  await expect(option).toHaveAttribute("aria-disabled", "true");
  await expect(option).toContainText(LACK);
});
