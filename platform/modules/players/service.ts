/** End-user sign-in and the account it sees: the same token scheme and limits as admins. */
import type { Db } from "../../db/index.js";
import { forbidden } from "../../errors.js";
import { minorToAmount } from "../../money.js";
import { AUTH_MESSAGE, createSignInCheck, openSession, type Client, type Credentials } from "../auth/service.js";
import { createUserSession, findLiveUser, findUserByUsername, type Player } from "./repository.js";

export type { Player } from "./repository.js";

/** The end-user scope's token lookup (players/access.ts): the user behind a live token. */
export const signedInPlayer = (db: Db, tokenHash: string): Promise<Player | undefined> => findLiveUser(db, tokenHash);

export function createPlayerService({ db, production, hashCost }: { db: Db; production: boolean; hashCost: number }) {
  const checkSignIn = createSignInCheck(production, hashCost);

  async function login(credentials: Credentials, client: Client): Promise<{ token: string }> {
    const user = await checkSignIn(credentials, client, (username) => findUserByUsername(db, username));
    if (!user.login_enabled) throw forbidden(AUTH_MESSAGE.loginDisabled);
    return openSession(db, { kind: "user", accountId: user.id }, client, (trx, session) =>
      createUserSession(trx, { userId: user.id, ...session, ...client }),
    );
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
