/**
 * The list kit's server half: read a list screen's address with its zod schema (a hand-edited
 * address falls back to the schema's defaults, or is not found), then load that page; an upstream
 * refusal becomes the page the operator should see (Permission Denied, not found).
 */
import type { z } from "zod";
import { orRouteError } from "./route-errors.server";

export async function loadListPage<Schema extends z.ZodTypeAny, Page>(
  request: Request,
  schema: Schema,
  load: (query: z.infer<Schema>) => Promise<Page>,
): Promise<{ query: z.infer<Schema>; list: Page }> {
  const parsed = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw new Response("Not Found", { status: 404 });
  return { query: parsed.data, list: await orRouteError(load(parsed.data)) };
}
