/** The signed-in operator as the browser needs it, derived from the admin record (docs/product.md §3). */
import type { AdminRecord, Role } from "../../protocol/wire";

/** Who is signed in, as commands and screens look at it to decide what the operator may do. */
export type Operator = { username: string; role: Role; flags: Record<string, boolean> };

/** `permissions` is a JSON string of boolean flags; anything unreadable grants nothing. */
export function parseFlags(permissions: string): Record<string, boolean> {
  try {
    const parsed: unknown = JSON.parse(permissions);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, on]) => on === true).map(([flag]) => [flag, true]));
  } catch {
    return {};
  }
}

export const toOperator = (admin: AdminRecord): Operator => ({
  username: admin.username,
  role: admin.role,
  flags: parseFlags(admin.permissions),
});
