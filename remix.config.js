/** Remix options, handed to the Remix Vite plugin by vite.config.ts. */
export default {
  appDirectory: "app",
  ignoredRouteFiles: ["**/*.test.{ts,tsx}"],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_singleFetch: true,
    v3_lazyRouteDiscovery: true,
  },
};
