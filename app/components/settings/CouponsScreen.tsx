/** Coupons (docs/product.md §2.12): the list, the bonus shown as a percentage, and the add form. */
import type { Coupon } from "../../../protocol/wire";
import { couponSchema } from "../../lib/forms/settings";
import { textColumn, timeColumn } from "../ui/columns";
import { SchemaForm } from "../ui/forms";
import { RecordTable } from "../ui/RecordTable";

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
      <RecordTable
        label="Coupons"
        columns={[
          textColumn("code", "Coupon Code", (coupon: Coupon) => coupon.couponCode),
          { id: "bonus", header: "Bonus", numeric: true, cell: (coupon: Coupon) => `${coupon.bonus}%` },
          timeColumn("created", "Created", (coupon: Coupon) => coupon.createdAt),
        ]}
        rows={coupons}
        rowKey={(coupon) => coupon._id}
        emptyText="No coupons yet"
      />
    </>
  );
}
