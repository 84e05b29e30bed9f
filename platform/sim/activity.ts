/**
 * The activity simulator: seeded end users who sign in and ask for deposits and
 * withdrawals through the end-user API over HTTP, sealed in the envelope, as real players
 * would, so the desk has live requests and realtime alerts to show. One request per tick
 * at `requestsPerMinute`, and one bet on the live feed per tick at `betsPerMinute`; a tick
 * is skipped while the previous one of its kind still runs.
 */
import { randomInt, randomUUID } from "node:crypto";
import { open, seal } from "../../protocol/envelope.js";
import type { WireResponse } from "../../protocol/wire.js";
import { DEFAULT_SEED, DEMO_USER_PASSWORD, seedUsername } from "../seed.js";
import { USER_API_PREFIX } from "../modules/players/access.js";

export type ActivityOptions = {
  /** The platform's origin, e.g. http://127.0.0.1:4000. */
  baseUrl: string;
  secret: string;
  requestsPerMinute: number;
  /** How many seeded users (user0001…) take part. */
  users?: number;
  /** Bets placed per minute (0: none), each on an offer `offer()` picks from the live feed. */
  betsPerMinute?: number;
  offer?: () => Promise<BetOffer | undefined>;
  /** Where unexpected failures go (network errors, 5xx); refusals such as a short balance are normal play. */
  warn?: (message: string) => void;
};

/** A price on offer: what a player would read off the screen before betting. */
export type BetOffer = { eventId: string; marketId: string; runner: string; isBack: 0 | 1; price: number };

const BANKS = ["State Bank", "HDFC Bank", "ICICI Bank", "Axis Bank"];
const COUPONS = ["WELCOME10", "BOOST5"];

export function startActivity({
  baseUrl,
  secret,
  requestsPerMinute,
  betsPerMinute = 0,
  offer = async () => undefined,
  users = DEFAULT_SEED.users,
  warn = console.warn,
}: ActivityOptions) {
  const tokens = new Map<string, string>();
  // Users whose Login is off (or who were removed) sit out instead of failing every tick.
  const benched = new Set<string>();
  const running = new Set<Promise<void>>();

  async function send(path: string, body: unknown, token?: string): Promise<{ httpStatus: number; reply: WireResponse }> {
    const response = await fetch(`${baseUrl}${USER_API_PREFIX}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ payload: seal(body, secret) }),
    });
    return { httpStatus: response.status, reply: (await response.json()) as WireResponse };
  }

  async function tokenOf(username: string): Promise<string | undefined> {
    const cached = tokens.get(username);
    if (cached) return cached;
    const { httpStatus, reply } = await send("/login", { username, password: DEMO_USER_PASSWORD });
    if (reply.status !== "SUCCESS") {
      if (httpStatus >= 500) warn(`activity: ${username} sign-in failed: ${reply.msg}`);
      else benched.add(username);
      return undefined;
    }
    const { token } = open(reply.data, secret) as { token: string };
    tokens.set(username, token);
    return token;
  }

  function nextRequest(): [path: string, body: unknown] {
    if (randomInt(10) < 7) {
      const type = randomInt(10) < 8 ? randomInt(2) : 2;
      return [
        "/deposit-request",
        {
          // USDT requests are in USDT: smaller numbers.
          amount: type === 2 ? randomInt(10, 200) : randomInt(1, 100) * 100,
          type,
          utr: randomUUID().replaceAll("-", "").slice(0, 12).toUpperCase(),
          ...(randomInt(5) === 0 ? { couponCode: COUPONS[randomInt(COUPONS.length)] } : {}),
        },
      ];
    }
    const bank = BANKS[randomInt(BANKS.length)]!;
    return [
      "/withdraw-request",
      {
        amount: randomInt(1, 50) * 100,
        bank: { holder: "Demo Player", bank, accNo: String(randomInt(10_000_000, 99_999_999)), ifsc: "SBIN0001234", branch: "Main" },
      },
    ];
  }

  async function nextBet(): Promise<[path: string, body: unknown] | undefined> {
    const offered = await offer();
    return offered && ["/bet", { ...offered, amount: randomInt(1, 50) * 100 }];
  }

  /** One call as a random seeded user; refusals (a short balance, a moved price) are normal play. */
  async function act(next: () => Promise<[path: string, body: unknown] | undefined>): Promise<void> {
    const username = seedUsername(1 + randomInt(users));
    if (benched.has(username)) return;
    const token = await tokenOf(username);
    if (!token) return;
    const call = await next();
    if (!call) return;
    const [path, body] = call;
    const { httpStatus, reply } = await send(path, body, token);
    if (httpStatus === 401) tokens.delete(username);
    else if (httpStatus >= 500) warn(`activity: ${path} failed: ${reply.msg}`);
  }

  /** Runs `next` `perMinute` times a minute; a tick is skipped while the previous one of its kind still runs. */
  function every(perMinute: number, next: () => Promise<[path: string, body: unknown] | undefined>) {
    let current: Promise<void> | undefined;
    return setInterval(() => {
      if (current) return;
      current = act(next)
        .catch((error: unknown) => warn(`activity: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          running.delete(current!);
          current = undefined;
        });
      running.add(current);
    }, 60_000 / perMinute);
  }

  const timers = [every(requestsPerMinute, async () => nextRequest())];
  if (betsPerMinute > 0) timers.push(every(betsPerMinute, nextBet));

  return {
    /**
     * Stops ticking and waits for the request in flight, so the server can close at once:
     * a connection that turns idle after close began would hold it until keep-alive expires.
     */
    async stop(): Promise<void> {
      timers.forEach(clearInterval);
      await Promise.all(running);
    },
  };
}
