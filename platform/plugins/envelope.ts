/**
 * The encrypted envelope (docs/protocol.md "Envelope"). A POST body must be `{"payload": ciphertext}`;
 * the hook replaces it with the decrypted value before validation, so routes see plain
 * data. Handlers answer through `reply.ok(data, msg)`, which seals `data`.
 */
import type { FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { EnvelopeError, open, seal } from "../../protocol/envelope.js";
import type { WireResponse } from "../../protocol/wire.js";
import { badRequest } from "../errors.js";

export const INVALID_PAYLOAD = "Invalid payload";

declare module "fastify" {
  interface FastifyReply {
    /** Answers 200 `{status: "SUCCESS", msg, data: seal(data)}`, `data` as the profile sends it (plugins/profile.ts). */
    ok(data?: unknown, msg?: string): FastifyReply;
  }
}

function openPayload(body: unknown, secret: string): unknown {
  const payload = typeof body === "object" && body !== null ? (body as { payload?: unknown }).payload : undefined;
  try {
    return open(payload, secret);
  } catch (error) {
    if (error instanceof EnvelopeError) throw badRequest(INVALID_PAYLOAD);
    throw error;
  }
}

export default fp<{ secret: string }>(
  async function envelope(app, { secret }) {
    // The envelope travels as JSON only; any other body type answers 415.
    app.removeContentTypeParser("text/plain");

    app.decorateReply("ok", function ok(this: FastifyReply, data: unknown = null, msg = "") {
      const body: WireResponse = { status: "SUCCESS", msg, data: seal(this.server.profile.answer(this.request, data), secret) };
      return this.code(200).send(body);
    });

    // Unknown routes run root hooks too; they answer 404 whatever their body.
    app.addHook("preValidation", async (request) => {
      if (request.method === "POST" && !request.is404) request.body = openPayload(request.body, secret);
    });
  },
  { name: "envelope" },
);
