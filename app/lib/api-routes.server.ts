/**
 * The console's view of the upstream calls: the one table is protocol/calls.ts (method, path,
 * default API, types, and what is spec or extension); this adds the operator's per-call routing
 * (`API_ROUTING=name=sports,other=admin`) and the URL of a call.
 */
import { CALLS, type ApiName, type CallName } from "../../protocol/calls";

export type { AnswerOf, ApiName, CallName, RequestOf } from "../../protocol/calls";

export const API_ROUTES = CALLS;

/** Parses `API_ROUTING` into per-call overrides; unknown names and APIs are configuration errors. */
export function parseRouting(text: string): Partial<Record<CallName, ApiName>> {
  const overrides: Partial<Record<CallName, ApiName>> = {};
  for (const entry of text.split(",").map((s) => s.trim()).filter(Boolean)) {
    const [name, api] = entry.split("=").map((s) => s.trim());
    if (!name || !(name in API_ROUTES)) throw new Error(`API_ROUTING names an unknown call: ${entry}`);
    if (api !== "admin" && api !== "sports") throw new Error(`API_ROUTING must say admin or sports: ${entry}`);
    overrides[name as CallName] = api;
  }
  return overrides;
}

/** Builds the absolute URL of a call from the bases, the route and the request's path params. */
export function resolveUrl(
  bases: Record<ApiName, string>,
  api: ApiName,
  path: string,
  params: Record<string, unknown> = {},
): { url: URL; consumed: Set<string> } {
  const consumed = new Set<string>();
  const filled = path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === null || value === "") throw new Error(`Missing path parameter ${key}`);
    consumed.add(key);
    return encodeURIComponent(String(value));
  });
  const base = bases[api].replace(/\/+$/, "");
  // docs/product.md §7.1: a path beginning with ./ goes to the admin API root with the admin segment removed.
  const absolute = filled.startsWith("./") ? `${base.replace(/\/[^/]*$/, "")}${filled.slice(1)}` : `${base}${filled}`;
  return { url: new URL(absolute), consumed };
}
