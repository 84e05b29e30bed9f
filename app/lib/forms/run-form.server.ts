/**
 * The form pipeline's server half: parse what a form posted with its zod schema (the same schema
 * the client checks before sending), run the call, and answer the Outcome the client toasts: the
 * success message, or the first problem and the field it belongs to, or the upstream's refusal.
 */
import { data } from "@remix-run/node";
import type { z } from "zod";
import { ApiError } from "../api.server";
import type { Outcome } from "../feedback";
import { firstIssue } from "./first-issue";

export const refuse = (message: string, field?: string) => data<Outcome>({ ok: false, message, field }, { status: 400 });

export async function runForm<Schema extends z.ZodTypeAny>(
  input: unknown,
  schema: Schema,
  perform: (form: z.infer<Schema>) => Promise<string>,
) {
  const form = schema.safeParse(input);
  if (!form.success) return refuse(firstIssue(form.error), form.error.issues[0]?.path.join("."));
  try {
    return data<Outcome>({ ok: true, message: await perform(form.data) });
  } catch (error) {
    // A refusal the platform worded (wrong password, not enough balance): the operator's toast.
    if (error instanceof ApiError) return refuse(error.message);
    throw error;
  }
}
