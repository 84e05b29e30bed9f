/** What server.ts hands every loader and action besides the request. */
declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The operator's IP address as the console's HTTP server saw it. */
    clientIp?: string;
  }
}

export {};
