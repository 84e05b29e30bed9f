/** Account fields more than one module reads: a new account's username, and the sign-in body of both APIs. */
import { z } from "zod";
import { USERNAME } from "../../protocol/rules.js";
import { Secret, Text } from "./schemas.js";

export const Username = z
  .string()
  .trim()
  .min(USERNAME.min, USERNAME.lengthMessage)
  .max(USERNAME.max, USERNAME.lengthMessage)
  .regex(USERNAME.pattern, "Username may hold only letters, digits, _ . and -");

/** Admins (/login) and end users (/api/user/login) sign in alike. */
export const LoginBody = z.object({
  username: Text({ min: 1, max: 64 }),
  password: Secret("Password is required"),
});
