/**
 * Admin Management's server half (docs/product.md §2.12): the staff list, and adding or removing a member.
 * The platform allows these calls to the super admin alone; removing ends the member's sessions.
 */
import type { AppLoadContext } from "@remix-run/node";
import { ApiError } from "./api.server";
import { SETTINGS_MESSAGES } from "./constants";
import { readForm, runForm } from "./forms/run-form.server";
import { addStaffInput, permissionsOf, staffActionSchema } from "./forms/staff";
import { orRouteError } from "./route-errors.server";
import { callAsOperator } from "./session.server";
import { reauthNeeded } from "./mfa/reauth.server";

export async function loadStaff(request: Request, context: AppLoadContext) {
  return { staff: await orRouteError(callAsOperator(request, context, "admins", undefined)) };
}

/** Adds a member, or removes one named by username (the palette knows the name, the list the row). */
export async function staffAction(request: Request, context: AppLoadContext) {
  // Staff and their flags change only with a recent second factor (issue 30).
  const asked = await reauthNeeded(request, context);
  if (asked) return asked;
  return runForm(addStaffInput(await readForm(request)), staffActionSchema, async (form) => {
    if (form.intent === "add") {
      await callAsOperator(request, context, "addAdmin", { username: form.username, password: form.password, permissions: permissionsOf(form.flags) });
      return SETTINGS_MESSAGES.staffAdded;
    }
    const staff = await callAsOperator(request, context, "admins", undefined);
    const member = staff.find((row) => row.username.toLowerCase() === form.username.toLowerCase());
    // Worded as the platform words an unknown id, and toasted the same way.
    if (!member) throw new ApiError(SETTINGS_MESSAGES.staffNotFound, 404);
    await callAsOperator(request, context, "removeAdmin", { id: member._id });
    return SETTINGS_MESSAGES.staffRemoved;
  });
}
