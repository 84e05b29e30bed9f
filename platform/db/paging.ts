/** The repository side of a list page (validation/schemas.ts `pageOf` computes the slice). */
import { sql, type SelectQueryBuilder } from "kysely";
import type { Slice } from "../validation/schemas.js";

// Loosely typed inside: the columns are references the calling query already knows.
type AnySelect = SelectQueryBuilder<any, any, any>;

/** `query.$call(inOrder(["r.created_at", "r.id"], false))`: the query's rows in the order of `columns`. */
export function inOrder(columns: readonly string[], ascending: boolean) {
  const direction = ascending ? "asc" : "desc";
  return <Query extends AnySelect>(query: Query): Query =>
    columns.reduce((sorted: AnySelect, column) => sorted.orderBy(sql.ref(column), direction), query) as Query;
}

/**
 * `query.$call(inPage(["r.created_at", "r.id"], false, slice))`: `slice` of the query's rows in
 * the order of `columns`, the last one a unique tie-break, so pages neither overlap nor skip.
 */
export function inPage(columns: readonly string[], ascending: boolean, slice: Slice) {
  return <Query extends AnySelect>(query: Query): Query => inOrder(columns, ascending)(query).offset(slice.offset).limit(slice.limit) as Query;
}
