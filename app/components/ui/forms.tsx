/**
 * The form pipeline's client half. `SchemaForm` posts to a route action through a fetcher, checks
 * the values with the action's own zod schema first (a problem is toasted and nothing is sent),
 * toasts the answer, and clears itself after a success. A settings screen is a schema and a list
 * of fields; forms with their own layout use `checkBeforeSend` and `Switch` alone.
 */
import { useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { z } from "zod";
import { announce, notifyError, type Outcome } from "../../lib/feedback";
import { firstIssue } from "../../lib/forms/first-issue";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { useActionRunner } from "../../lib/use-action-runner";

/**
 * A form of its own layout posted through the action runner (checked by `schema` first), so a
 * change that needs the second factor asks for it where the operator is and is sent again;
 * answers the submit handler and whether the post is in flight.
 */
export function useRunnerForm(key: string, action: string, schema: z.ZodTypeAny) {
  const submit = useActionRunner(key);
  const [busy, setBusy] = useState(false);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    checkBeforeSend(schema)(event);
    if (event.defaultPrevented) return;
    event.preventDefault();
    setBusy(true);
    void submit(action, Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>).then((outcome) => {
      setBusy(false);
      announce(outcome);
    });
  };
  return { busy, onSubmit };
}

/** A submit handler that stops the post and toasts the first problem when the schema refuses. */
export const checkBeforeSend =
  (schema: z.ZodTypeAny, toInput: (data: FormData) => unknown = (data) => Object.fromEntries(data)) =>
  (event: FormEvent<HTMLFormElement>) => {
    const parsed = schema.safeParse(toInput(new FormData(event.currentTarget)));
    if (!parsed.success) {
      event.preventDefault();
      notifyError(firstIssue(parsed.error));
    }
  };

export type Values = Record<string, string>;
export type SetValue = (name: string, value: string) => void;

export type FieldSpec = {
  name: string;
  label: string;
  type?: "text" | "password";
  inputMode?: "decimal";
  maxLength?: number;
  autoComplete?: string;
};

type SchemaFormProps = {
  /** The form's accessible name (and heading, when `heading`). */
  label: string;
  heading?: boolean;
  schema: z.ZodTypeAny;
  /** What the schema reads from the posted fields (default: every field by name). */
  toInput?: (data: FormData) => unknown;
  /** Route action to post to; default: the current route's. */
  action?: string;
  /** Fields the operator does not type (intent, the row's id, a requestId). */
  hidden?: Values;
  /** The stored values a settings form starts from and keeps after a save (default: empty, cleared after a save). */
  initial?: Values;
  fields: readonly FieldSpec[];
  /** Submit stays disabled until these have a value (default: every field). */
  required?: readonly string[];
  submitLabel: string;
  busyLabel?: string;
  className?: string;
  autoFocus?: boolean;
  /** After a success, beside clearing the fields (a money form takes a fresh requestId). */
  onSuccess?: () => void;
  /** Controls of the form's own beside the text fields (switches), posted with them. */
  children?: ReactNode;
};

export function SchemaForm({
  label,
  heading = false,
  schema,
  toInput,
  action,
  hidden = {},
  initial = {},
  fields,
  required = fields.map((field) => field.name),
  submitLabel,
  busyLabel = "…",
  className = "form",
  autoFocus,
  onSuccess,
  children,
}: SchemaFormProps) {
  const fetcher = useFetcher<Outcome>();
  const [values, setValues] = useState<Values>(initial);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (autoFocus) form.current?.querySelector<HTMLInputElement>("input:not([type=hidden])")?.focus();
  }, [autoFocus]);
  useAnnouncedOutcome(fetcher.data, () => {
    setValues((current) => (Object.keys(initial).length ? current : {}));
    onSuccess?.();
  });
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form ref={form} method="post" action={action} className={className} onSubmit={checkBeforeSend(schema, toInput)} aria-label={label}>
      {heading && <h3>{label}</h3>}
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {fields.map((field) => (
        <label key={field.name}>
          {field.label}
          <input
            name={field.name}
            type={field.type ?? "text"}
            inputMode={field.inputMode}
            maxLength={field.maxLength}
            autoComplete={field.autoComplete ?? "off"}
            value={values[field.name] ?? ""}
            onChange={(event) => setValues((current) => ({ ...current, [field.name]: event.target.value }))}
          />
        </label>
      ))}
      {children}
      <button type="submit" disabled={busy || required.some((name) => !values[name])}>
        {busy ? busyLabel : submitLabel}
      </button>
    </fetcher.Form>
  );
}

/**
 * A checkbox shown as a switch (docs/product.md §9: 20 high, 50 wide), beside its label; controlled
 * (`checked`, `onToggle`) or left to the form (`defaultChecked`).
 */
export function Switch({
  label,
  name,
  value = "on",
  checked,
  defaultChecked,
  disabled,
  onToggle,
}: {
  label: ReactNode;
  name: string;
  value?: string;
  checked?: boolean;
  defaultChecked?: boolean;
  disabled?: boolean;
  onToggle?: () => void;
}) {
  return (
    <label className="switch">
      <input type="checkbox" role="switch" name={name} value={value} checked={checked} defaultChecked={defaultChecked} disabled={disabled} onChange={onToggle} />
      <span className="switch-track" aria-hidden="true" />
      {label}
    </label>
  );
}
