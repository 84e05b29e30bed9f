/**
 * Admin Management (spec §2.12): the staff list, each with Remove (the palette's `Remove staff…`,
 * so it asks to confirm), and the add form: username, password and the staff flags.
 */
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { STAFF_FLAGS, type StaffRow } from "../../../protocol/wire";
import type { Outcome } from "../../lib/feedback";
import { addStaffInput, addStaffSchema } from "../../lib/forms/staff";
import { formatDateTime } from "../../lib/format";
import { useAnnouncedOutcome } from "../../lib/use-announced-outcome";
import { checkBeforeSend, Switch } from "../ui/forms";
import { useCommand } from "../ui/shell-context";

export function StaffScreen({ staff }: { staff: readonly StaffRow[] }) {
  const removeStaff = useCommand("staff.remove");
  return (
    <>
      <AddStaffForm />
      <table className="record-table" aria-label="Staff">
        <thead>
          <tr>
            <th>Username</th>
            <th>Flags</th>
            <th>Created</th>
            <th>Action</th>
          </tr>
        </thead>
        <tbody>
          {staff.map((member) => (
            <tr key={member._id}>
              <td>{member.username}</td>
              <td>{STAFF_FLAGS.filter((flag) => member.permissions[flag]).join(", ") || "none"}</td>
              <td>{formatDateTime(member.createdAt)}</td>
              <td>
                <button type="button" aria-label={`Remove ${member.username}`} onClick={() => removeStaff({ username: member.username })}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
          {staff.length === 0 && (
            <tr>
              <td colSpan={4} className="dim">
                No staff yet
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </>
  );
}

const EMPTY = { username: "", password: "", flags: [] as string[] };

function AddStaffForm() {
  const fetcher = useFetcher<Outcome>();
  const [form, setForm] = useState(EMPTY);
  useAnnouncedOutcome(fetcher.data, () => setForm(EMPTY));
  const busy = fetcher.state !== "idle";
  const toggle = (flag: string) =>
    setForm((current) => ({
      ...current,
      flags: current.flags.includes(flag) ? current.flags.filter((other) => other !== flag) : [...current.flags, flag],
    }));
  return (
    <fetcher.Form method="post" className="form narrow" aria-label="Add Staff" onSubmit={checkBeforeSend(addStaffSchema, addStaffInput)}>
      <h3>Add Staff</h3>
      <input type="hidden" name="intent" value="add" />
      <label>
        Username
        <input name="username" autoComplete="off" value={form.username} onChange={(event) => setForm({ ...form, username: event.target.value })} />
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(event) => setForm({ ...form, password: event.target.value })}
        />
      </label>
      <fieldset className="staff-flags">
        <legend>Permissions</legend>
        {STAFF_FLAGS.map((flag) => (
          <Switch key={flag} label={flag} name="flag" value={flag} checked={form.flags.includes(flag)} onToggle={() => toggle(flag)} />
        ))}
      </fieldset>
      {/* Spec §5: username and password are required. */}
      <button type="submit" disabled={busy || !form.username || !form.password}>
        {busy ? "Adding…" : "Add"}
      </button>
    </fetcher.Form>
  );
}
