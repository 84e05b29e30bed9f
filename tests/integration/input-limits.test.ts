/**
 * Input limits of issue 15: report and history days within DAY_YEARS (item 4), losses in the
 * bet download written as numbers (item 9), stored images bounded in pixels and ending at
 * their end marker, served as what they are by the platform and through the console (item 10).
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SliderImage } from "../../protocol/wire.js";
import { buildApp } from "../../platform/app.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { IMAGE_MAX_SIDE } from "../../platform/uploads.js";
import { createFeedStore } from "../../platform/modules/sports/repository.js";
import { DAY_YEARS } from "../../platform/validation/days.js";
import { startConsole } from "./support/console.js";
import { HTML, IMAGES, pngOfSize } from "./support/images.js";
import { call, createBettor, createPlayer, expectRefused, footprint, freshIp, houseId, login, testDb, testEnv } from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
let uploadsDir: string;
let admin: string;

beforeAll(async () => {
  db = await testDb();
  uploadsDir = await mkdtemp(join(tmpdir(), "betdesk-input-limits-"));
  app = buildApp({ db, env: testEnv(), uploadsDir });
  admin = await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
});
afterAll(async () => {
  await app.close();
  await rm(uploadsDir, { recursive: true, force: true });
});

const get = (path: string) => app.inject({ method: "GET", url: `/api/admin${path}`, headers: { authorization: `Bearer ${admin}` } });

describe(`days are within the years ${DAY_YEARS.min}–${DAY_YEARS.max}`, () => {
  const outOfRange = `must be in the years ${DAY_YEARS.min} to ${DAY_YEARS.max}`;
  const paths = (user: bigint) => [`/user-bets?user=${user}&type=0&`, `/download-bets?user=${user}&type=0&`, "/b2c/report?", "/report?"];

  it("answers 400 naming the field for years 0000, 0001 and 1899, on every route that takes days", async () => {
    const user = (await createPlayer(app, await houseId())).id;
    for (const path of paths(user)) {
      for (const day of ["0000-01-01", "0001-01-01", "1899-12-31"]) {
        for (const query of [`from=${day}`, `from=2025-01-01&to=${day}`]) {
          const reply = await get(`${path}${query}`);
          const field = query.startsWith(`from=${day}`) ? "from" : "to";
          expect({ path, query, statusCode: reply.statusCode, body: reply.json() }).toEqual({
            path,
            query,
            statusCode: 400,
            body: { status: "FAIL", msg: `${field}: ${outOfRange}`, data: null },
          });
        }
      }
    }
  });

  it("answers the first and the last day of the range", async () => {
    const user = (await createPlayer(app, await houseId())).id;
    for (const path of paths(user)) {
      const reply = await get(`${path}from=${DAY_YEARS.min}-01-01&to=${DAY_YEARS.max}-12-31`);
      expect({ path, statusCode: reply.statusCode }).toEqual({ path, statusCode: 200 });
    }
  });
});

describe("the bet download", () => {
  it("writes a lost bet's loss as a number and keeps formula-like text behind a quote", async () => {
    const store = createFeedStore(db);
    const eventId = `L${randomUUID().slice(0, 8)}`;
    const marketId = `${eventId}-odds`;
    // A runner name a spreadsheet would take for a formula.
    const runner = "+Alpha";
    await store.putEvent({ eventId, sport: 0, teamA: "Alpha", teamB: "Beta", startTime: new Date(), inplay: true, status: "OPEN", score: [] });
    await store.putMarket({
      marketId,
      eventId,
      type: "odds",
      name: "Match Odds",
      heading: null,
      status: "OPEN",
      runners: [runner, "Beta"].map((name) => ({ name, status: "ACTIVE", back: { price: 2.5, size: 1000 }, lay: { price: 2.52, size: 1000 } })),
    });
    const user = await createBettor(app, await houseId());
    const bet = await call<{ _id: string }>(app, "POST", "/api/user/bet", { token: user.token, body: { eventId, marketId, runner, isBack: 1, price: 2.5, amount: 10 } });
    expect(bet.statusCode).toBe(200);
    expect((await call(app, "POST", "/settel-bet", { token: admin, body: { bet: { _id: bet.data!._id }, status: 2 } })).statusCode).toBe(200);

    const download = await get(`/download-bets?user=${user.id}&type=0`);
    expect(download.statusCode).toBe(200);
    const [header, row, ...rest] = parse(download.body, { record_delimiter: "\r\n" }) as string[][];
    expect(rest).toEqual([]);
    const cell = (column: string) => row![header!.indexOf(column)];
    expect(cell("Status")).toBe("FAIL");
    expect(cell("Profit/Loss")).toBe("-10.00");
    expect(Number(cell("Profit/Loss"))).toBe(-10);
    expect(cell("Runner Name")).toBe("'+Alpha");
  });
});

describe(`stored images are at most ${IMAGE_MAX_SIDE} pixels per side and end at their end marker`, () => {
  const tooWide = `Image must be at most ${IMAGE_MAX_SIDE} × ${IMAGE_MAX_SIDE} pixels`;
  const trailing = "Image must end at its end marker";
  const files = async () => (await readdir(uploadsDir, { recursive: true }).catch(() => [])).sort();
  const state = async () => ({ ...(await footprint()), slider: await db.selectFrom("slider_images").select("file_name").execute(), files: await files() });
  const slider = (...images: Buffer[]) =>
    call(app, "POST", "/b2c/add-slider", { token: admin, body: { images: images.map((bytes) => ({ image: bytes.toString("base64"), ext: "png" })) } });

  // The three, then the other types with bytes after their end.
  const hostile: [string, Buffer, string, string][] = [
    ["a PNG of a few dozen bytes claiming 50,000 × 50,000", pngOfSize(50_000, 50_000, { whole: false }), "image/png", tooWide],
    ["a whole PNG that decodes to 20,000 × 20,000", pngOfSize(20_000, 20_000, { whole: true }), "image/png", tooWide],
    [`a PNG one pixel wider than ${IMAGE_MAX_SIDE}`, pngOfSize(IMAGE_MAX_SIDE + 1, 1, { whole: true }), "image/png", tooWide],
    ["a PNG with HTML after IEND", Buffer.concat([IMAGES.png, HTML]), "image/png", trailing],
    ["a JPEG with HTML after EOI", Buffer.concat([IMAGES.jpg, HTML]), "image/jpeg", trailing],
    ["a JPEG with HTML and a second EOI after its EOI", Buffer.concat([IMAGES.jpg, HTML, Buffer.from([0xff, 0xd9])]), "image/jpeg", trailing],
    ["a WebP with HTML after its RIFF chunk", Buffer.concat([IMAGES.webp, HTML]), "image/webp", trailing],
  ];

  it.each(hostile)("the slider refuses %s, storing nothing", async (_case, bytes, _mime, msg) => {
    await expectRefused(state, () => slider(IMAGES.png, bytes), { statusCode: 400, msg: `images.1.image: ${msg}` });
  });

  it.each([...hostile, ["a GIF with HTML after its trailer", Buffer.concat([IMAGES.gif, HTML]), "image/gif", trailing] as const])(
    "a deposit receipt refuses %s, storing nothing",
    async (_case, bytes, mime, msg) => {
      const player = await createPlayer(app, await houseId());
      const image = `data:${mime};base64,${bytes.toString("base64")}`;
      const deposit = () => call(app, "POST", "/api/user/deposit-request", { token: player.token, body: { amount: 10, type: 0, utr: "UTR-1", image } });
      await expectRefused(state, deposit, { statusCode: 400, msg });
    },
  );

  it(`the slider stores a whole ${IMAGE_MAX_SIDE} × ${IMAGE_MAX_SIDE} PNG and serves it as a PNG, never sniffed, never cached`, async () => {
    const bytes = pngOfSize(IMAGE_MAX_SIDE, IMAGE_MAX_SIDE, { whole: true });
    expect((await slider(bytes)).statusCode).toBe(200);
    const stored = (await call<SliderImage[]>(app, "GET", "/b2c/slider", { token: admin })).data!.at(-1)!;
    const file = await get(stored.image);
    expect(file.rawPayload.equals(bytes)).toBe(true);
    expect(file.headers).toMatchObject({ "content-type": "image/png", "x-content-type-options": "nosniff", "cache-control": "no-store" });
    expect((await call(app, "GET", `/b2c/remove-slider/${stored._id}`, { token: admin })).statusCode).toBe(200);
  });

  it("a deposit receipt is served the same way", async () => {
    const player = await createPlayer(app, await houseId());
    const image = `data:image/gif;base64,${IMAGES.gif.toString("base64")}`;
    const reply = await call<{ _id: string }>(app, "POST", "/api/user/deposit-request", { token: player.token, body: { amount: 10, type: 0, utr: "UTR-2", image } });
    expect(reply.statusCode).toBe(200);
    const row = await db.selectFrom("deposit_requests").select("image").where("id", "=", BigInt(reply.data!._id)).executeTakeFirstOrThrow();
    const file = await get(`/uploads/${row.image}`);
    expect(file.rawPayload.equals(IMAGES.gif)).toBe(true);
    expect(file.headers).toMatchObject({ "content-type": "image/gif", "x-content-type-options": "nosniff", "cache-control": "no-store" });
  });
});

describe("the console passes a stored image on", () => {
  it("with one Cache-Control, no-store, and nosniff", async () => {
    const browserFacing = await startConsole();
    try {
      const signIn = await browserFacing.fetch("/login", { method: "POST", body: new URLSearchParams({ ...DEMO_ACCOUNTS.admin, redirectTo: "/" }) });
      const cookie = signIn.headers.get("Set-Cookie")!.split(";")[0]!;
      const upload = { intent: "upload", images: [{ image: IMAGES.png.toString("base64"), ext: "png" }] };
      await browserFacing.fetch("/slider", { method: "POST", headers: { "Content-Type": "application/json", Cookie: cookie }, body: JSON.stringify(upload) });
      const stored = await db.selectFrom("slider_images").select(["id", "file_name"]).orderBy("id", "desc").executeTakeFirstOrThrow();

      const image = await browserFacing.fetch(`/resources/slider/${stored.file_name}`, { headers: { Cookie: cookie } });
      expect(Buffer.from(await image.arrayBuffer()).equals(IMAGES.png)).toBe(true);
      // Headers.get joins repeated headers with ", ": one header reads as its value alone.
      expect(Object.fromEntries(image.headers)).toMatchObject({ "content-type": "image/png", "cache-control": "no-store", "x-content-type-options": "nosniff" });

      await browserFacing.fetch("/slider", { method: "POST", headers: { Cookie: cookie }, body: new URLSearchParams({ intent: "remove", id: String(stored.id) }) });
    } finally {
      await browserFacing.close();
    }
  });
});
