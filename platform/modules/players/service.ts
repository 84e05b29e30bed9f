/** End-user sign-in and the account it sees: the same token scheme and limits as admins. */
import type { Db } from "../../db/index.js";
import { forbidden } from "../../errors.js";
import { minorToAmount } from "../../money.js";
import { hashToken, newToken } from "../../security/token.js";
import { recordLogin } from "../auth/repository.js";
import { AUTH_MESSAGE, createSignInCheck, SESSION_TTL_MS, type Client, type Credentials } from "../auth/service.js";
import { createUserSession, findLiveUser, findUserByUsername, type Player } from "./repository.js";

export type { Player } from "./repository.js";

/** The end-user scope's token lookup (players/routes.ts): the user behind a live token. */
export const signedInPlayer = (db: Db, tokenHash: string): Promise<Player | undefined> => findLiveUser(db, tokenHash);

export function createPlayerService({ db, production }: { db: Db; production: boolean }) {
  const checkSignIn = createSignInCheck(production);

  async function login(credentials: Credentials, client: Client): Promise<{ token: string }> {
    const user = await checkSignIn(credentials, client, (username) => findUserByUsername(db, username));
    if (!user.login_enabled) throw forbidden(AUTH_MESSAGE.loginDisabled);
    const token = newToken();
    await db.transaction().execute(async (trx) => {
      await createUserSession(trx, {
        userId: user.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + SESSION_TTL_MS),
        ...client,
      });
      await recordLogin(trx, { kind: "user", accountId: user.id, ...client });
    });
    return { token };
  }

  return { login };
}

export function toMe(player: Player) {
  return {
    _id: String(player.id),
    username: player.username,
    balance: minorToAmount(player.balance),
    bonus: minorToAmount(player.bonus),
  };
}
