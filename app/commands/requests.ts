/**
 * The approval desk's commands (docs/product.md §2.11): the palette's decisions, which open the desk on the
 * request, and the desk's keys: tabs `1`–`3`, `a` success and `r` fail on the cursor row.
 */
import { REQUEST_STATUS } from "../../protocol/wire";
import { REQUEST_TABS } from "../lib/constants";
import type { RequestHit } from "../lib/requests.server";
import { SCREENS } from "../lib/screens";
import { keepHits, useServerSearch } from "./use-server-search";
import type { Command, PickSource, PickSources, ScreenCommand } from "./types";

/** Pending deposit and withdrawal requests by username or UTR, on the server. */
const useRequestSearch = (term: string) => useServerSearch<RequestHit>("/resources/requests/search", term);

/** A pending request as the palette shows and answers it. */
const requestHits: Omit<PickSource<RequestHit>, "useFound"> = {
  label: "Pending request",
  placeholder: "Search username or UTR",
  idle: "Type a username or UTR",
  row: (hit) => ({
    key: `${hit.kind}-${hit.id}`,
    title: hit.username,
    detail: hit.utr ?? undefined,
    group: hit.kind === "deposit" ? "deposit" : "withdrawal",
    amount: hit.amount,
  }),
  answer: (hit) => ({ value: hit.id, extra: { label: hit.username } }),
};

const pendingOf = (kind: RequestHit["kind"]): PickSource<RequestHit> => ({
  ...requestHits,
  useFound: (term) => keepHits(useRequestSearch(term), (hit) => hit.kind === kind),
});

export const REQUEST_PICK_SOURCES: PickSources = {
  /** `#`: a request opens on its desk, pending tab. */
  requests: {
    ...requestHits,
    useFound: useRequestSearch,
    mode: {
      prefix: "#",
      noun: "requests",
      address: (hit) =>
        `${SCREENS[`${hit.kind}s`].path}?${new URLSearchParams({ status: String(REQUEST_STATUS.pending), open: hit.id })}`,
    },
  } satisfies PickSource<RequestHit>,
  deposits: pendingOf("deposit"),
  withdraws: pendingOf("withdraw"),
};

/** Approve or reject a pending request: pick it, then the desk's own confirmation asks. */
const decide = (kind: "deposit" | "withdraw", decision: 1 | 2, title: string, keywords: string[]): Command => ({
  id: `request.${decision === 1 ? "approve" : "reject"}-${kind}`,
  title,
  group: "Requests",
  keywords,
  access: kind === "deposit" ? SCREENS.deposits : SCREENS.withdraws,
  steps: [
    { kind: "pick", name: "request", label: kind === "deposit" ? "Pending deposit" : "Pending withdrawal", source: `${kind}s` },
  ],
  run: ({ navigate }, answers) =>
    navigate(`/${kind}s?${new URLSearchParams({ status: String(REQUEST_STATUS.pending), open: answers.request!, decide: String(decision) })}`),
});

export const REQUEST_PALETTE_COMMANDS: readonly Command[] = [
  decide("deposit", 1, "Approve deposit…", ["success deposit", "accept", "credit"]),
  decide("deposit", 2, "Reject deposit…", ["fail deposit", "decline"]),
  decide("withdraw", 1, "Approve withdrawal…", ["success withdrawal", "payout", "accept"]),
  decide("withdraw", 2, "Reject withdrawal…", ["fail withdrawal", "decline"]),
];

const desk = (id: string, title: string, keys: string[]) =>
  ({ id, title, group: "Requests", scope: "requests", keys }) as const satisfies ScreenCommand;

/** The tab commands' ids, in REQUEST_TABS order (`requests.tab-0` is Pending). */
export const tabCommandId = (status: number) => `requests.tab-${status}` as const;

export const REQUEST_SCREEN_COMMANDS = [
  desk(tabCommandId(REQUEST_TABS[0].status), `${REQUEST_TABS[0].label} tab`, ["1"]),
  desk(tabCommandId(REQUEST_TABS[1].status), `${REQUEST_TABS[1].label} tab`, ["2"]),
  desk(tabCommandId(REQUEST_TABS[2].status), `${REQUEST_TABS[2].label} tab`, ["3"]),
  desk("requests.approve", "Success: approve the cursor request…", ["a"]),
  desk("requests.reject", "Fail: reject the cursor request…", ["r"]),
] as const;
