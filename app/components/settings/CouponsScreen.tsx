/** Coupons (docs/product.md §2.12): the list, the bonus shown as a percentage, and the add form. */
import type { Coupon } from "../../../protocol/wire";
import { formatDateTime } from "../../lib/format";
import { couponSchema } from "../../lib/forms/settings";
import { SchemaForm } from "../ui/forms";

export function CouponsScreen({ coupons }: { coupons: readonly Coupon[] }) {
  return (
    <>
      <SchemaForm
        label="Add coupon"
        heading
        className="form narrow"
        schema={couponSchema}
        fields={[
          { name: "couponCode", label: "Coupon Code", maxLength: 32 },
          { name: "bonus", label: "Bonus (%)", inputMode: "decimal" },
        ]}
        submitLabel="Add"
        busyLabel="Adding…"
      />
      <table className="record-table" aria-label="Coupons">
        <thead>
          <tr>
            <th>Coupon Code</th>
            <th>Bonus</th>
            <th>Created</th>
          </tr>
        </thead>
        <tbody>
          {coupons.map((coupon) => (
            <tr key={coupon._id}>
              <td>{coupon.couponCode}</td>
              <td className="numeric">{coupon.bonus}%</td>
              <td>{formatDateTime(coupon.createdAt)}</td>
            </tr>
          ))}
          {coupons.length === 0 && (
            <tr>
              <td colSpan={3} className="dim">
                No coupons yet
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </>
  );
}
