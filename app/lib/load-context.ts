/** What server.ts hands every loader and action besides the request. */
import type { ConsoleStore } from "./store/schema";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The operator's IP address as the console's HTTP server saw it. */
    clientIp?: string;
    /** The console's own store (ADR 0008); absent only in unit tests that record nothing. */
    store?: ConsoleStore;
  }
}

export {};
