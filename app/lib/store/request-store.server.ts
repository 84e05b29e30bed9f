/**
 * The console's store for the request being answered (ADR 0010): consoleApp runs every request
 * inside it, so requireSession(request) reads the session record without a load context, as every
 * loader and action already calls it. The scope lives on globalThis because the Remix build (Vite
 * in development) loads its own copy of this module beside server.ts's.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ConsoleStore } from "./schema";

const KEY = Symbol.for("betdesk.requestStore");
const scope: AsyncLocalStorage<ConsoleStore> = ((globalThis as Record<symbol, unknown>)[KEY] ??= new AsyncLocalStorage<ConsoleStore>()) as AsyncLocalStorage<ConsoleStore>;

export const withRequestStore = <T>(store: ConsoleStore, work: () => T): T => scope.run(store, work);

/** The store of the request this code runs for; undefined outside one. */
export const requestStore = (): ConsoleStore | undefined => scope.getStore();
