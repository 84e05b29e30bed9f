/**
 * What each upstream API lacks of the extensions protocol/calls.ts marks, learnt from its answers
 * and kept in memory per API base URL (a restart learns again from the first answers):
 * - an extension call that answered 404 without naming a missing thing: "Bet not found" is the
 *   bet's absence, "Not found" or an unknown route's answer is the call's;
 * - an extension query parameter the answer ignored: a filter that let other items through, a
 *   `pageSize` answered with fewer items a page while more remained.
 * Nothing is learnt as present: an API that has a call today proves nothing about its filters.
 */
import { CALL_LIST, CALLS, type CallName } from "../../protocol/calls";
import { PAGE_SIZE } from "../../protocol/wire";
import { ApiError } from "./api.server";
import { parseRouting } from "./api-routes.server";
import { lackSentence, type Lacking } from "./capabilities";
import { env } from "./env.server";

/** An extension: a call, or one of a call's query parameters (`pendingBets?eventId`). */
export type Extension = CallName | `${CallName}?${string}`;

/** A 404 that names what it did not find is that thing's absence, not the call's. */
const NAMED_ABSENCE = /^(?!route\b).+ not found$/i;

/**
 * The one answer that shows a money call honours `requestId` (docs/protocol.md, Idempotency): an
 * API that ignores the field could not know the key was used. An ordinary answer proves nothing.
 */
const REQUEST_ID_REUSED = /^requestId was already used/i;

export function createCapabilities(baseOf: (name: CallName) => string) {
  const lacking = new Map<string, Map<Extension, string>>();
  /** The API bases seen honouring a call's `requestId`. */
  const honouring = new Set<string>();
  const learn = (name: CallName, extension: Extension, seen: string) => {
    const base = baseOf(name);
    if (!lacking.has(base)) lacking.set(base, new Map());
    lacking.get(base)!.set(extension, seen);
  };
  /** A failed call: an extension call's 404 that names nothing missing means the API has no such call. */
  const learnFromFailure = (name: CallName, error: unknown) => {
    if (error instanceof ApiError && error.httpStatus === 409 && REQUEST_ID_REUSED.test(error.message)) honouring.add(baseOf(name));
    if (CALLS[name].mark !== "extension" || !(error instanceof ApiError) || error.httpStatus !== 404) return;
    if (!NAMED_ABSENCE.test(error.message)) learn(name, name, `${CALLS[name].method} ${CALLS[name].path} answered 404`);
  };
  /** An extension query parameter the answer showed ignored (`seen` says how). */
  const learnIgnored = (name: CallName, field: string, seen: string) => {
    const query: Readonly<Record<string, string | undefined>> = CALLS[name].query;
    if (query[field] === "extension") learn(name, `${name}?${field}`, seen);
  };
  return {
    learnIgnored,
    /** What was seen that shows the API lacks this extension, or null while nothing has. */
    lack: (name: CallName, extension: Extension = name): string | null => lacking.get(baseOf(name))?.get(extension) ?? null,
    learnFromFailure,
    /**
     * Whether this call's API was seen honouring `requestId`, so a transfer whose answer was lost
     * may be sent again with the same key (a job's resume). Unsure is no.
     */
    honoursRequestId: (name: "userDeposit" | "userWithdraw"): boolean => honouring.has(baseOf(name)),
    /**
     * A whole list read with these extension parameters: `ignored` are the filters an item of the
     * answers did not match; `pageSize` the most items a page held, short of the size asked while
     * more remained.
     */
    learnFromReading(name: CallName, { ignored, pageSize, total }: { ignored: Iterable<string>; pageSize: number; total: number }) {
      for (const field of ignored) learnIgnored(name, field, `answered items that do not match ${field}`);
      if (pageSize < PAGE_SIZE.max && total > pageSize) learnIgnored(name, "pageSize", `answered ${pageSize} a page when asked ${PAGE_SIZE.max}`);
    },
    /**
     * Runs an extension call's work, or refuses it at once, saying what the API lacks, once a 404
     * showed the call missing (the first 404 says so too, in place of a bare "Not found").
     */
    async withExtension<T>(name: CallName, work: () => Promise<T>): Promise<T> {
      const refusal = () => {
        const seen = lacking.get(baseOf(name))?.get(name);
        return seen && new ApiError(lackSentence(seen), 404);
      };
      const known = refusal();
      if (known) throw known;
      try {
        return await work();
      } catch (error) {
        learnFromFailure(name, error);
        throw refusal() || error;
      }
    },
    /** Every extension one API base lacks, with what showed it. */
    lacking: (base: string): Record<string, string> => Object.fromEntries(lacking.get(base) ?? []),
    /** The extension calls known missing, each where its own API answers it: what the browser is told. */
    missingCalls: (): Lacking =>
      Object.fromEntries(
        CALL_LIST.flatMap(({ name }) => {
          const seen = lacking.get(baseOf(name))?.get(name);
          return seen ? [[name, lackSentence(seen)]] : [];
        }),
      ),
  };
}

const routing = parseRouting(env.API_ROUTING);
/** The base URL a call goes to (`API_ROUTING` may move it to the other API). */
const baseOf = (name: CallName) => ((routing[name] ?? CALLS[name].api) === "sports" ? env.SPORTS_API_URL : env.ADMIN_API_URL);

export const capabilities = createCapabilities(baseOf);
