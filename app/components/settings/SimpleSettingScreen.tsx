/**
 * A settings screen that is one form of plain fields (WhatsApp, Telegram, the bonuses, the bonus
 * limits): the row of SIMPLE_SETTINGS is the whole screen. It starts from the stored values and
 * remounts when they change, so it always shows what is saved.
 */
import { useLoaderData } from "@remix-run/react";
import { SchemaForm } from "../ui/forms";
import { SIMPLE_SETTINGS, type SimpleSettingId } from "../../lib/forms/settings";
import { SCREENS } from "../../lib/screens";

export function SimpleSettingScreen({ id, values }: { id: SimpleSettingId; values: Record<string, string> }) {
  const setting = SIMPLE_SETTINGS[id];
  return (
    <SchemaForm
      key={JSON.stringify(values)}
      label={SCREENS[setting.screen].label}
      className="form narrow"
      schema={setting.schema}
      fields={setting.fields}
      initial={values}
      submitLabel="Save"
      busyLabel="Saving…"
      autoFocus
    />
  );
}

/** The route's default export: the screen of one SIMPLE_SETTINGS row, from its loader's values. */
export const simpleSettingScreen = (id: SimpleSettingId) =>
  function SimpleSetting() {
    const { values } = useLoaderData<{ values: Record<string, string> }>();
    return <SimpleSettingScreen id={id} values={values} />;
  };
