/**
 * The form pipeline's server half: read what a form posted, parse it with its zod schema (the same
 * schema the client checks before sending), run the call, and answer the Outcome the client
 * toasts: the success message, or the first problem and the field it belongs to, or the upstream's
 * refusal.
 */
import { data } from "@remix-run/node";
import type { z } from "zod";
import { ApiError } from "../api.server";
import { HeldForApproval } from "../four-eyes.server";
import type { Outcome } from "../feedback";
import { firstIssue } from "./first-issue";

/** A body the action cannot read is the client's mistake: a 400 that says so, never a 500. */
const unreadable = (message: string) => new Response(message, { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** What a form posted (urlencoded or multipart); any other body throws a 400. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw unreadable("The request body is not a form (send application/x-www-form-urlencoded or multipart/form-data)");
  }
}

/** A JSON body; one that does not parse throws a 400. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw unreadable("The request body is not valid JSON");
  }
}

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
    // Not performed but not refused either: it waits for a second operator (four-eyes).
    if (error instanceof HeldForApproval) return data<Outcome>({ ok: true, message: error.message });
    // A refusal the platform worded (wrong password, not enough balance): the operator's toast.
    if (error instanceof ApiError) return refuse(error.message);
    throw error;
  }
}
