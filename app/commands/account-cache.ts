/**
 * Users and panels the operator has seen this session (list pages, `@` answers), kept in the
 * browser so the palette finds them as fast as commands. Holds no secrets: id, name, balance.
 */
import type { AccountHit } from "../lib/accounts.server";

/** Beyond this the oldest entries go first. */
export const ACCOUNT_CACHE_LIMIT = 20_000;

const seen = new Map<string, AccountHit>();
let version = 0;
const listeners = new Set<() => void>();

const keyOf = (hit: AccountHit) => `${hit.mode}:${hit.id}`;

export function rememberAccounts(hits: readonly AccountHit[]): void {
  if (hits.length === 0) return;
  for (const hit of hits) {
    seen.delete(keyOf(hit));
    seen.set(keyOf(hit), hit);
  }
  for (const key of seen.keys()) {
    if (seen.size <= ACCOUNT_CACHE_LIMIT) break;
    seen.delete(key);
  }
  version += 1;
  for (const listener of listeners) listener();
}

export const cachedAccounts = (): AccountHit[] => [...seen.values()];
export const accountCacheVersion = (): number => version;

export function subscribeAccountCache(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
