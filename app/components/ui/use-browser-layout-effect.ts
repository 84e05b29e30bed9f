import { useEffect, useLayoutEffect } from "react";

/**
 * `useLayoutEffect` in the browser, where its work (measuring, scrolling, moving focus) must be done
 * before the frame is painted; `useEffect` on the server, which paints nothing and would warn.
 */
export const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;
