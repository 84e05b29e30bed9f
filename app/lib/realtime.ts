/** Where the console's own socket lives, shared by the relay (server) and the browser. */
export const REALTIME_PATH = "/realtime";
/** Sent to the browser whenever the relay's upstream connection comes or goes: "live" | "offline". */
export const UPSTREAM_STATE_EVENT = "upstream";
