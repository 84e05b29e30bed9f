/** The palette's server searches. `@`: users and panels by username, remembered for its own ranking. */
import { useEffect } from "react";
import type { AccountHit } from "../lib/accounts.server";
import type { BetHit, MarketTotal } from "../lib/bets.server";
import type { EventHit } from "../lib/markets.server";
import type { RequestHit } from "../lib/requests.server";
import { rememberAccounts } from "./account-cache";
import { useChoiceList } from "./use-choice-list";
import { useServerSearch } from "./use-server-search";

export function useAccountSearch(term: string) {
  const search = useServerSearch<AccountHit>("/resources/accounts/search", term);
  useEffect(() => rememberAccounts(search.hits), [search.hits]);
  return search;
}

/** `#`: pending deposit and withdrawal requests by username or UTR. */
export const useRequestSearch = (term: string) => useServerSearch<RequestHit>("/resources/requests/search", term);

/** `#`: pending bets by id, username or event. */
export const useBetSearch = (term: string) => useServerSearch<BetHit>("/resources/bets/search", term);
/** `#` and Open market…: events by team name. */
export const useEventSearch = (term: string) => useServerSearch<EventHit>("/resources/markets/search", term);

const SETTLE_CHOICES = "/resources/bets/settle-choices";
const eventTitle = (total: MarketTotal) => total.event;
const marketTitle = (total: MarketTotal) => total.market;
/** Settle market… and Void bets of event…: the events with pending bets, narrowed by team name. */
export const usePendingEvents = (term: string) => useChoiceList(SETTLE_CHOICES, term, eventTitle);
/** Settle market…: the markets with pending bets of one event, narrowed by name. */
export const usePendingMarkets = (eventId: string, term: string) =>
  useChoiceList(`${SETTLE_CHOICES}?${new URLSearchParams({ eventId })}`, term, marketTitle);
