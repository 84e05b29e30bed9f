import { benchPendingList, benchSettlements } from "./sports-book.bench";
await benchSettlements();
await benchPendingList();
