/**
 * What the browser is told of the upstream APIs' missing extension calls (capabilities.server.ts
 * learns them): per call name, the sentence that says so. Commands and screens that name such a
 * call as their `extension` are shown disabled with it, and their keys do not run them.
 */
import type { CallName } from "../../protocol/calls";

export type Lacking = Partial<Record<CallName, string>>;

/** The one sentence for a missing call, from what showed it ("POST /resettle-bet answered 404"). */
export const lackSentence = (seen: string) => `The operator's API lacks this extension: ${seen}`;

/** Why a command or screen needing this extension cannot run, or null when nothing showed it missing. */
export const lackOf = ({ extension }: { extension?: CallName }, lacking: Lacking): string | null =>
  (extension && lacking[extension]) ?? null;
