/**
 * Admin Management (docs/product.md §2.12): the staff list, each with Remove (the palette's `Remove staff…`,
 * so it asks to confirm), and the add form: username, password and the staff flags.
 */
import { useState } from "react";
import { STAFF_FLAGS, type StaffFlag, type StaffRow } from "../../../protocol/wire";
import { addStaffInput, addStaffSchema } from "../../lib/forms/staff";
import { textColumn, timeColumn } from "../ui/columns";
import { SchemaForm, Switch } from "../ui/forms";
import { RecordTable } from "../ui/RecordTable";
import { useCommand } from "../ui/shell-context";

export function StaffScreen({ staff }: { staff: readonly StaffRow[] }) {
  const removeStaff = useCommand("staff.remove");
  return (
    <>
      <AddStaffForm />
      <RecordTable
        label="Staff"
        columns={[
          textColumn("username", "Username", (member: StaffRow) => member.username),
          textColumn("flags", "Flags", (member: StaffRow) => STAFF_FLAGS.filter((flag) => member.permissions[flag]).join(", ") || "none"),
          timeColumn("created", "Created", (member: StaffRow) => member.createdAt),
          {
            id: "action",
            header: "Action",
            cell: (member: StaffRow) => (
              <button type="button" aria-label={`Remove ${member.username}`} onClick={() => removeStaff({ username: member.username })}>
                Remove
              </button>
            ),
          },
        ]}
        rows={staff}
        rowKey={(member) => member._id}
        emptyText="No staff yet"
      />
    </>
  );
}

function AddStaffForm() {
  const [flags, setFlags] = useState<readonly StaffFlag[]>([]);
  const toggle = (flag: StaffFlag) =>
    setFlags((current) => (current.includes(flag) ? current.filter((other) => other !== flag) : [...current, flag]));
  // docs/product.md §5: username and password are required (Add stays disabled until both are typed).
  return (
    <SchemaForm
      label="Add Staff"
      heading
      className="form narrow"
      schema={addStaffSchema}
      toInput={addStaffInput}
      hidden={{ intent: "add" }}
      fields={[
        { name: "username", label: "Username" },
        { name: "password", label: "Password", type: "password", autoComplete: "new-password" },
      ]}
      submitLabel="Add"
      busyLabel="Adding…"
      onSuccess={() => setFlags([])}
    >
      <fieldset className="staff-flags">
        <legend>Permissions</legend>
        {STAFF_FLAGS.map((flag) => (
          <Switch key={flag} label={flag} name="flag" value={flag} checked={flags.includes(flag)} onToggle={() => toggle(flag)} />
        ))}
      </fieldset>
    </SchemaForm>
  );
}
