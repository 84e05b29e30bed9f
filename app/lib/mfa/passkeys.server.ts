/**
 * Passkeys as the second factor (issue 30, WebAuthn through @simplewebauthn/server). The relying
 * party is the host the browser asked for, or WEBAUTHN_RP_ID and WEBAUTHN_ORIGINS behind a proxy
 * that rewrites it. A challenge lives server-side only: on the pending sign-in, or by operator
 * while a signed-in operator registers one.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { env } from "../env.server";
import { addPasskey, listPasskeys, saveChallenge, takeChallenge, usePasskey } from "../store/second-factor.server";
import type { ConsoleStore } from "../store/schema";

/** How long a ceremony may take, in the browser and for its stored challenge. */
const CEREMONY_SECONDS = 120;
const RP_NAME = "betdesk";

export type RelyingParty = { rpID: string; origins: string[] };

export function relyingPartyOf(request: Request): RelyingParty {
  const url = new URL(request.url);
  return { rpID: env.WEBAUTHN_RP_ID || url.hostname, origins: env.webauthnOrigins.length > 0 ? env.webauthnOrigins : [url.origin] };
}

const descriptorsOf = async (store: ConsoleStore, username: string) =>
  (await listPasskeys(store, username)).map((row) => ({ id: row.credential_id, transports: row.transports }));

/** Options for the browser to register a new passkey; the challenge is kept for the answer. */
export async function registrationOptions(store: ConsoleStore, rp: RelyingParty, username: string) {
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: username,
    attestationType: "none",
    excludeCredentials: await descriptorsOf(store, username),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
    timeout: CEREMONY_SECONDS * 1000,
  });
  await saveChallenge(store, username, options.challenge, CEREMONY_SECONDS);
  return options;
}

/** Stores the passkey the browser made: null when registered, else why not. */
export async function finishRegistration(store: ConsoleStore, rp: RelyingParty, username: string, response: unknown, name: string): Promise<string | null> {
  const challenge = await takeChallenge(store, username);
  if (!challenge) return "The passkey took too long: start again";
  try {
    const { verified, registrationInfo } = await verifyRegistrationResponse({
      response: response as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    });
    if (!verified) return "The passkey could not be verified";
    const { credential } = registrationInfo;
    await addPasskey(store, {
      credentialId: credential.id,
      username,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
    });
    return null;
  } catch (error) {
    return `The passkey could not be verified: ${(error as Error).message}`;
  }
}

/** Options for the browser to sign with one of the operator's passkeys (the caller keeps the challenge). */
export const authenticationOptions = async (store: ConsoleStore, rp: RelyingParty, username: string) =>
  generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: await descriptorsOf(store, username),
    userVerification: "preferred",
    timeout: CEREMONY_SECONDS * 1000,
  });

/** Checks a signature by one of the operator's passkeys against `challenge`: null when it is good. */
export async function checkPasskey(store: ConsoleStore, rp: RelyingParty, username: string, response: unknown, challenge: string | null): Promise<string | null> {
  const answer = response as AuthenticationResponseJSON;
  const passkey = (await listPasskeys(store, username)).find((row) => row.credential_id === answer?.id);
  if (!challenge || !passkey) return "That passkey is not one of yours";
  try {
    const { verified, authenticationInfo } = await verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.rpID,
      credential: { id: passkey.credential_id, publicKey: Buffer.from(passkey.public_key, "base64url"), counter: Number(passkey.counter), transports: passkey.transports },
      requireUserVerification: false,
    });
    if (!verified) return "The passkey could not be verified";
    return (await usePasskey(store, passkey.credential_id, authenticationInfo.newCounter)) ? null : "The passkey's counter went back: it may be a copy";
  } catch (error) {
    return `The passkey could not be verified: ${(error as Error).message}`;
  }
}
