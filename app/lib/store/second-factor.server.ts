/**
 * The second factor's rows in the console's store (migration 009, issue 30). Every write that
 * decides an attempt is one conditional statement, so two console instances racing the same code
 * accept it once.
 */
import { sql } from "kysely";
import type { ConsoleStore } from "./schema";

// --- Authenticator keys -------------------------------------------------------------------

export const readTotp = (store: ConsoleStore, username: string) =>
  store.selectFrom("console_mfa_totp").selectAll().where("username", "=", username).executeTakeFirst();

/** A new, unconfirmed key replaces any earlier unconfirmed one; a confirmed key stays until reset. */
export async function startTotp(store: ConsoleStore, username: string, secretSealed: string): Promise<boolean> {
  const written = await store
    .insertInto("console_mfa_totp")
    .values({ username, secret_sealed: secretSealed, confirmed: false })
    .onConflict((conflict) => conflict.column("username").doUpdateSet({ secret_sealed: secretSealed, last_step: null }).where("console_mfa_totp.confirmed", "=", false))
    .executeTakeFirst();
  return written.numInsertedOrUpdatedRows === 1n;
}

/**
 * Accepts the code's time-step if it is later than the last accepted one (confirming the key on
 * its first): false means this step, or a later one, was used already (a replay).
 */
export async function acceptTotpStep(store: ConsoleStore, username: string, step: number): Promise<boolean> {
  const { numUpdatedRows } = await store
    .updateTable("console_mfa_totp")
    .set({ last_step: BigInt(step), confirmed: true })
    .where("username", "=", username)
    .where((eb) => eb.or([eb("last_step", "is", null), eb("last_step", "<", BigInt(step))]))
    .executeTakeFirst();
  return numUpdatedRows === 1n;
}

// --- Recovery codes ------------------------------------------------------------------------

export async function replaceRecoveryCodes(store: ConsoleStore, username: string, codes: readonly { salt: string; codeHash: string }[]): Promise<void> {
  await store.transaction().execute(async (trx) => {
    await trx.deleteFrom("console_mfa_recovery").where("username", "=", username).execute();
    await trx
      .insertInto("console_mfa_recovery")
      .values(codes.map(({ salt, codeHash }) => ({ username, salt, code_hash: codeHash, used_at: null })))
      .execute();
  });
}

export const unusedRecoveryCodes = (store: ConsoleStore, username: string) =>
  store.selectFrom("console_mfa_recovery").select(["salt", "code_hash"]).where("username", "=", username).where("used_at", "is", null).execute();

/** Spends the code: true once, however many sign-ins race it. */
export async function spendRecoveryCode(store: ConsoleStore, username: string, codeHash: string): Promise<boolean> {
  const { numUpdatedRows } = await store
    .updateTable("console_mfa_recovery")
    .set({ used_at: sql<Date>`now()` })
    .where("username", "=", username)
    .where("code_hash", "=", codeHash)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return numUpdatedRows === 1n;
}

// --- Passkeys ------------------------------------------------------------------------------

export const listPasskeys = (store: ConsoleStore, username: string) =>
  store.selectFrom("console_mfa_passkeys").selectAll().where("username", "=", username).orderBy("created_at").execute();

export async function addPasskey(
  store: ConsoleStore,
  passkey: { credentialId: string; username: string; publicKey: string; counter: number; transports: readonly string[]; name: string },
): Promise<void> {
  await store
    .insertInto("console_mfa_passkeys")
    .values({
      credential_id: passkey.credentialId,
      username: passkey.username,
      public_key: passkey.publicKey,
      counter: BigInt(passkey.counter),
      transports: JSON.stringify(passkey.transports),
      name: passkey.name,
      last_used_at: null,
    })
    .execute();
}

/** Records a use; false when the counter did not move on (a cloned authenticator), unless both are 0 (no counter). */
export async function usePasskey(store: ConsoleStore, credentialId: string, counter: number): Promise<boolean> {
  const { numUpdatedRows } = await store
    .updateTable("console_mfa_passkeys")
    .set({ counter: BigInt(counter), last_used_at: sql<Date>`now()` })
    .where("credential_id", "=", credentialId)
    .where((eb) => eb.or([eb("counter", "<", BigInt(counter)), ...(counter === 0 ? [eb("counter", "=", 0n)] : [])]))
    .executeTakeFirst();
  return numUpdatedRows === 1n;
}

export async function removePasskey(store: ConsoleStore, username: string, credentialId: string): Promise<boolean> {
  const { numDeletedRows } = await store
    .deleteFrom("console_mfa_passkeys")
    .where("username", "=", username)
    .where("credential_id", "=", credentialId)
    .executeTakeFirst();
  return numDeletedRows === 1n;
}

/** A signed-in operator's passkey registration challenge, kept until it is answered or expires. */
export async function saveChallenge(store: ConsoleStore, username: string, challenge: string, seconds: number): Promise<void> {
  const expires = sql<Date>`now() + make_interval(secs => ${seconds})`;
  await store
    .insertInto("console_mfa_challenges")
    .values({ username, challenge, expires_at: expires })
    .onConflict((conflict) => conflict.column("username").doUpdateSet({ challenge, expires_at: expires }))
    .execute();
}

/** Takes the challenge (it answers one ceremony): null when there is none or it expired. */
export async function takeChallenge(store: ConsoleStore, username: string): Promise<string | null> {
  const row = await store
    .deleteFrom("console_mfa_challenges")
    .where("username", "=", username)
    .where("expires_at", ">", sql<Date>`now()`)
    .returning("challenge")
    .executeTakeFirst();
  return row?.challenge ?? null;
}

// --- Everything of one operator ------------------------------------------------------------

/** Whether the operator has a confirmed key or a passkey, and which. */
export async function factorsOf(store: ConsoleStore, username: string): Promise<{ totp: boolean; passkeys: number; recoveryLeft: number }> {
  const [totp, passkeys, recovery] = await Promise.all([
    readTotp(store, username),
    store.selectFrom("console_mfa_passkeys").select(sql<string>`count(*)`.as("count")).where("username", "=", username).executeTakeFirstOrThrow(),
    store.selectFrom("console_mfa_recovery").select(sql<string>`count(*)`.as("count")).where("username", "=", username).where("used_at", "is", null).executeTakeFirstOrThrow(),
  ]);
  return { totp: totp?.confirmed ?? false, passkeys: Number(passkeys.count), recoveryLeft: Number(recovery.count) };
}

/** Forgets every factor of the operator (a reset): they enrol again at their next sign-in. */
export async function deleteFactors(store: ConsoleStore, username: string): Promise<void> {
  await store.transaction().execute(async (trx) => {
    for (const table of ["console_mfa_totp", "console_mfa_recovery", "console_mfa_passkeys", "console_mfa_challenges"] as const) {
      await trx.deleteFrom(table).where("username", "=", username).execute();
    }
  });
}

// --- Attempts ------------------------------------------------------------------------------

/** The keys still cooling down, with until when. */
export const lockedKeys = (store: ConsoleStore, keys: readonly string[]) =>
  store.selectFrom("console_mfa_attempts").select(["key", "locked_until"]).where("key", "in", keys).where("locked_until", ">", sql<Date>`now()`).execute();

/**
 * Counts a failure against each key: failures older than `windowSeconds` are forgotten, and the
 * `limit`th locks the key for `coolDownSeconds`, its count starting again.
 */
export async function countFailure(store: ConsoleStore, keys: readonly string[], rule: { limit: number; windowSeconds: number; coolDownSeconds: number }): Promise<void> {
  for (const key of keys) {
    const { rows } = await sql<{ failures: number }>`
      insert into console_mfa_attempts as a (key, failures, last_failure_at) values (${key}, 1, now())
      on conflict (key) do update set
        failures = case when a.last_failure_at < now() - make_interval(secs => ${rule.windowSeconds}) then 1 else a.failures + 1 end,
        last_failure_at = now()
      returning failures`.execute(store);
    if ((rows[0]?.failures ?? 0) >= rule.limit) {
      await store
        .updateTable("console_mfa_attempts")
        .set({ failures: 0, locked_until: sql<Date>`now() + make_interval(secs => ${rule.coolDownSeconds})` })
        .where("key", "=", key)
        .execute();
    }
  }
}

/** A success forgets the operator's failures (an address's are kept: others may be guessing from it). */
export async function clearFailures(store: ConsoleStore, key: string): Promise<void> {
  await store.deleteFrom("console_mfa_attempts").where("key", "=", key).execute();
}

// --- Sign-ins waiting for their second factor ----------------------------------------------

export type PendingSignIn = { id: string; username: string; role: number; udid: string; tokenSealed: string; challenge: string | null };

export async function savePending(store: ConsoleStore, pending: Omit<PendingSignIn, "challenge">, seconds: number): Promise<void> {
  // Expired ones go as new ones come: the table holds only the last few minutes.
  await store.deleteFrom("console_mfa_pending").where("expires_at", "<", sql<Date>`now()`).execute();
  await store
    .insertInto("console_mfa_pending")
    .values({
      id: pending.id,
      username: pending.username,
      role: pending.role,
      udid: pending.udid,
      token_sealed: pending.tokenSealed,
      challenge: null,
      expires_at: sql<Date>`now() + make_interval(secs => ${seconds})`,
    })
    .execute();
}

export async function readPending(store: ConsoleStore, id: string): Promise<PendingSignIn | null> {
  const row = await store.selectFrom("console_mfa_pending").selectAll().where("id", "=", id).where("expires_at", ">", sql<Date>`now()`).executeTakeFirst();
  return row ? { id: row.id, username: row.username, role: row.role, udid: row.udid, tokenSealed: row.token_sealed, challenge: row.challenge } : null;
}

export async function setPendingChallenge(store: ConsoleStore, id: string, challenge: string): Promise<void> {
  await store.updateTable("console_mfa_pending").set({ challenge }).where("id", "=", id).execute();
}

/** Ends the wait: true once (the sign-in that takes it begins the session). */
export async function takePending(store: ConsoleStore, id: string): Promise<boolean> {
  const { numDeletedRows } = await store.deleteFrom("console_mfa_pending").where("id", "=", id).where("expires_at", ">", sql<Date>`now()`).executeTakeFirst();
  return numDeletedRows === 1n;
}

// --- Policy --------------------------------------------------------------------------------

/** The roles that must use a second factor, or null: the environment's default. */
export async function readPolicyRoles(store: ConsoleStore): Promise<number[] | null> {
  const row = await store.selectFrom("console_mfa_policy").select("roles").executeTakeFirst();
  return row?.roles ?? null;
}

export async function savePolicyRoles(store: ConsoleStore, roles: readonly number[]): Promise<void> {
  const value = JSON.stringify([...roles].sort());
  await store
    .insertInto("console_mfa_policy")
    .values({ roles: value })
    .onConflict((conflict) => conflict.column("only_row").doUpdateSet({ roles: value }))
    .execute();
}
