/**
 * GET and POST /resources/views (issue 32): the signed-in operator's saved views of a list
 * screen, listed when the screen opens or `V` is pressed, saved and deleted from the views
 * menu. Each view is checked against app/lib/list-view.ts's schema; nobody reads or changes another's,
 * nor the views of a screen they may not open.
 */
import type { AppLoadContext } from "@remix-run/node";
import { VIEWS_PER_SCREEN, viewChangeSchema, viewScreenSchema } from "./list-view";
import { requireAccess, storeOf } from "./guards.server";
import { SCREENS, type Screen } from "./screens";
import { deleteView, saveView, viewsOf } from "./store/views.server";

const refused = (message: string, status = 400) => Response.json({ ok: false, message }, { status });

export async function listViews(request: Request, context: AppLoadContext): Promise<Response> {
  const screen = viewScreenSchema.safeParse(new URL(request.url).searchParams.get("screen"));
  if (!screen.success) return refused(screen.error.issues[0]!.message);
  const operator = await requireAccess(request, context, SCREENS[screen.data] as Screen);
  return Response.json({ views: await viewsOf(storeOf(context), operator.username, screen.data) });
}

export async function changeView(request: Request, context: AppLoadContext): Promise<Response> {
  const parsed = viewChangeSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) return refused(parsed.error.issues[0]!.message);
  const change = parsed.data;
  const { username } = await requireAccess(request, context, SCREENS[change.screen] as Screen);
  const store = storeOf(context);
  if (change.intent === "save") {
    if (!(await saveView(store, username, change.screen, change.view)))
      return refused(`At most ${VIEWS_PER_SCREEN} views a screen: delete one first`, 409);
    return Response.json({ ok: true, message: `View “${change.view.name}” saved` });
  }
  if (!(await deleteView(store, username, change.screen, change.name))) return refused(`No view “${change.name}”`, 404);
  return Response.json({ ok: true, message: `View “${change.name}” deleted` });
}
