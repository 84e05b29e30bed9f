/**
 * Bearer-token authentication for every route of the scope it is registered in, unless the
 * route opts out with `config: { auth: false }`. Protected by default, so a new route cannot
 * be left open by forgetting a hook. Each API scope registers it once with the lookup of the
 * module owning its sessions (admin sessions, end-user sessions): the caller found is set on
 * the request; a missing, unknown, expired or revoked token answers 401 with the scope's
 * message ("Admin not found" ends the console's session).
 */
import type { FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { Db } from "../db/index.js";
import { unauthorized } from "../errors.js";
import { hashToken } from "../security/token.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** `false`: the route needs no bearer token. */
    auth?: boolean;
  }
}

/**
 * How a scope finds its caller: the request property it is set on (declared `X | null` by the
 * module owning the sessions), the caller behind a live session's token hash, and the 401 message.
 */
export type TokenAuth<Property extends keyof FastifyRequest = keyof FastifyRequest> = {
  property: Property;
  lookup: (db: Db, tokenHash: string) => Promise<NonNullable<FastifyRequest[Property]> | undefined>;
  refusal: string;
};

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1] ?? null;
}

export default fp<TokenAuth>(
  async function auth(app, { property, lookup, refusal }) {
    app.decorateRequest(property, null);
    app.addHook("onRequest", async (request) => {
      if (request.routeOptions.config.auth === false) return;
      const token = bearerToken(request);
      const caller = token ? await lookup(app.db, hashToken(token)) : undefined;
      if (!caller) throw unauthorized(refusal);
      (request as unknown as Record<string, unknown>)[property] = caller;
    });
  },
  { name: "auth" },
);
