import { useEffect, useState } from "react";

/**
 * False in the server's render and until the page has hydrated. A real POST form's submit button
 * must not start disabled: before hydration the browser submits the form itself, and an HTML form
 * does not submit from a field while its default button is disabled (docs/ux.md "Keys typed early").
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
