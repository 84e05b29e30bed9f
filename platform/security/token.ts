/** Opaque bearer tokens. Only their sha256 is stored, so a database leak yields no usable token. */
import { createHash, randomBytes } from "node:crypto";

export const newToken = (): string => randomBytes(32).toString("base64url");

export const hashToken = (token: string): string => createHash("sha256").update(token, "utf8").digest("hex");
