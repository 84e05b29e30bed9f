/**
 * The settings screens' server half (docs/product.md §2.12): each loader reads the stored values, each action
 * checks the form with its schema (app/lib/forms/settings.ts) and posts the platform's call. The
 * platform checks the `settings` flag on every call; its refusal is the form's toast.
 */
import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import type { CallName } from "./api-routes.server";
import { SETTINGS_MESSAGES } from "./constants";
import {
  asFormValues,
  bankDetailsInput,
  bankDetailsSchema,
  couponSchema,
  SIMPLE_SETTINGS,
  sliderSchema,
  type SimpleSettingId,
} from "./forms/settings";
import { readForm, readJson, runForm } from "./forms/run-form.server";
import { orRouteError } from "./route-errors.server";
import { callAsOperator, imageAsOperator } from "./session.server";

/** A simple setting's stored values, as its form's fields. */
export async function loadSimpleSetting({ request, context }: LoaderFunctionArgs, id: SimpleSettingId) {
  const read = SIMPLE_SETTINGS[id].read satisfies CallName;
  const values = await orRouteError(callAsOperator(request, context, read, undefined));
  return { values: asFormValues(values) };
}

export async function saveSimpleSetting({ request, context }: LoaderFunctionArgs, id: SimpleSettingId) {
  const { schema, update, saved } = SIMPLE_SETTINGS[id];
  return runForm(Object.fromEntries(await readForm(request)), schema, async (form) => {
    // Each row's schema answers exactly its update call's body.
    await callAsOperator(request, context, update satisfies CallName, form as never);
    return saved;
  });
}

export async function loadBankDetails(request: Request, context: AppLoadContext) {
  return { bank: await orRouteError(callAsOperator(request, context, "bankDetails", undefined)) };
}

export async function saveBankDetails(request: Request, context: AppLoadContext) {
  return runForm(bankDetailsInput(await readForm(request)), bankDetailsSchema, async (form) => {
    await callAsOperator(request, context, "updateBankDetails", form);
    return SETTINGS_MESSAGES.bankDetailsSaved;
  });
}

export async function loadCoupons(request: Request, context: AppLoadContext) {
  return { coupons: await orRouteError(callAsOperator(request, context, "coupons", undefined)) };
}

export async function addCoupon(request: Request, context: AppLoadContext) {
  return runForm(Object.fromEntries(await readForm(request)), couponSchema, async (form) => {
    await callAsOperator(request, context, "addCoupon", form);
    return SETTINGS_MESSAGES.couponAdded;
  });
}

/** The slider's images, each shown through the console's own image route. */
export async function loadSlider(request: Request, context: AppLoadContext) {
  const images = await orRouteError(callAsOperator(request, context, "slider", undefined));
  return { images: images.map((image) => ({ _id: image._id, src: `/resources/slider/${image.image.split("/").pop()}` })) };
}

/** Uploads come as JSON (base64 images); a removal as a form. */
export async function sliderAction(request: Request, context: AppLoadContext) {
  const input = request.headers.get("Content-Type")?.includes("application/json")
    ? await readJson(request)
    : Object.fromEntries(await readForm(request));
  return runForm(input, sliderSchema, async (form) => {
    if (form.intent === "remove") {
      await callAsOperator(request, context, "removeSlider", { id: form.id });
      return SETTINGS_MESSAGES.sliderImageRemoved;
    }
    await callAsOperator(request, context, "addSlider", { images: form.images });
    return SETTINGS_MESSAGES.sliderSaved;
  });
}

/** A slider image, streamed from the platform: the browser never holds the operator's token. */
export const sliderImage = (request: Request, context: AppLoadContext, name: string) => imageAsOperator(request, context, "sliderImage", name);
