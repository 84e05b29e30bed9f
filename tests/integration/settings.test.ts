import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BankSettings, Coupon, SliderImage } from "../../protocol/wire.js";
import { buildApp } from "../../platform/app.js";
import type { Db } from "../../platform/db/index.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { SLIDER_MAX_IMAGES } from "../../platform/modules/settings/service.js";
import { IMAGES } from "./support/images.js";
import { call, createAdmin, expectRefused, freshIp, login, testDb, testEnv } from "./support/platform.js";

let app: FastifyInstance;
let db: Db;
let uploadsDir: string;
let admin: string;
let settingsStaff: string;
let settingsStaffId: bigint;

beforeAll(async () => {
  db = await testDb();
  uploadsDir = await mkdtemp(join(tmpdir(), "betdesk-settings-"));
  app = buildApp({ db, env: testEnv(), uploadsDir });
  admin = await login(app, DEMO_ACCOUNTS.admin.username, DEMO_ACCOUNTS.admin.password, freshIp());
  const staff = await createAdmin({ role: 2, permissions: { settings: true } });
  settingsStaffId = staff.id;
  settingsStaff = await login(app, staff.username, staff.password, freshIp());
});
afterAll(async () => {
  await app.close();
  await rm(uploadsDir, { recursive: true, force: true });
});

/** What a refused update must leave as it was: every setting, coupon, slider row and audit row. */
async function settingsFootprint() {
  const count = async (table: "audit_log" | "coupons" | "slider_images") =>
    Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<bigint>().as("n")).executeTakeFirstOrThrow()).n);
  return {
    settings: await db.selectFrom("settings").select(["key", "value"]).orderBy("key").execute(),
    audit: await count("audit_log"),
    coupons: await count("coupons"),
    slider: await count("slider_images"),
  };
}

function lastAudit(action: string) {
  return db.selectFrom("audit_log").selectAll().where("action", "=", action).orderBy("id", "desc").executeTakeFirstOrThrow();
}

const BANK: BankSettings = {
  bankName: "HDFC Bank",
  holder: "Betdesk Gaming Pvt Ltd",
  accNo: "50100012345678",
  ifsc: "HDFC0000123",
  usdt: "",
  upiId: [
    { value: "betdesk@hdfc", token: "Main" },
    { value: "pay.betdesk@okaxis", token: "" },
  ],
};

describe("bank details", () => {
  it("answers the seeded details with one UPI entry", async () => {
    const reply = await call<BankSettings>(app, "GET", "/b2c/bank-details", { token: admin });
    expect(reply.statusCode).toBe(200);
    expect(reply.data).toEqual({
      bankName: expect.any(String),
      holder: expect.any(String),
      accNo: expect.any(String),
      ifsc: expect.stringMatching(/^[A-Z]{4}0[A-Z0-9]{6}$/),
      usdt: expect.any(String),
      upiId: [expect.objectContaining({ value: expect.stringContaining("@") })],
    });
  });

  it("saves under the spec's spelling, answers what was posted and audits before and after", async () => {
    const before = (await call<BankSettings>(app, "GET", "/b2c/bank-details", { token: admin })).data;
    const reply = await call(app, "POST", "/b2c/update-bank-deatils", { token: settingsStaff, body: { ...BANK, ifsc: " hdfc0000123 " } });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Bank details updated successfully" });
    expect((await call(app, "GET", "/b2c/bank-details", { token: settingsStaff })).data).toEqual(BANK);
    const audit = await lastAudit("settings.bank-details");
    expect(audit).toMatchObject({ actor_id: settingsStaffId, target_kind: "settings", target_ids: ["bank-details"], change: { before, after: BANK } });
  });

  it("also answers the corrected spelling", async () => {
    const next = { ...BANK, holder: "Betdesk Gaming" };
    expect((await call(app, "POST", "/b2c/update-bank-details", { token: admin, body: next })).statusCode).toBe(200);
    expect((await call(app, "GET", "/b2c/bank-details", { token: admin })).data).toEqual(next);
  });

  it.each([
    ["no UPI entry", { ...BANK, upiId: [] }, "upiId: At least one UPI entry is required"],
    ["an unknown field", { ...BANK, branch: "Pune" }, "body: Unrecognized key(s) in object: 'branch'"],
    ["a missing field", { ...BANK, bankName: undefined }, "bankName: Required"],
    ["a bad IFSC", { ...BANK, ifsc: "HDFC123" }, "ifsc: Must be an IFSC code such as SBIN0001234"],
    ["a control character", { ...BANK, holder: "Bet\u0007desk" }, "holder: Must not contain control characters"],
    ["a line break", { ...BANK, bankName: "HDFC\nBank" }, "bankName: Must not contain control characters"],
    ["a name too long", { ...BANK, bankName: "B".repeat(101) }, "bankName: Must be at most 100 characters"],
    ["a bad account number", { ...BANK, accNo: "12-34" }, "accNo: Must be 6 to 34 letters or digits"],
    ["a bad wallet", { ...BANK, usdt: "0x!" }, "usdt: Must be empty or a wallet address of 26 to 100 letters or digits"],
    ["a bad UPI id", { ...BANK, upiId: [{ value: "not-a-upi", token: "x" }] }, "upiId.0.value: Must be a UPI id such as name@bank"],
    ["a UPI entry without token", { ...BANK, upiId: [{ value: "asha@bank" }] }, "upiId.0.token: Required"],
    ["too many UPI entries", { ...BANK, upiId: Array.from({ length: 11 }, () => BANK.upiId[0]) }, "upiId: At most 10 UPI entries"],
  ])("refuses %s with 400 naming the field, changing nothing", async (_case, body, msg) => {
    await expectRefused(settingsFootprint, () => call(app, "POST", "/b2c/update-bank-deatils", { token: admin, body }), { statusCode: 400, msg });
  });
});

describe("WhatsApp and Telegram", () => {
  it("saves a WhatsApp number and answers it", async () => {
    const reply = await call(app, "POST", "/b2c/update-whatsapp", { token: admin, body: { number: " +919812345678 " } });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Whatsapp number updated successfully" });
    expect((await call(app, "GET", "/b2c/whatsapp", { token: admin })).data).toEqual({ number: "+919812345678" });
    expect((await lastAudit("settings.whatsapp")).change).toMatchObject({ after: { number: "+919812345678" } });
  });

  it("saves a Telegram value and answers it", async () => {
    const reply = await call(app, "POST", "/b2c/update-telegram", { token: admin, body: { number: "https://t.me/betdesk" } });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Telegram updated successfully" });
    expect((await call(app, "GET", "/b2c/telegram", { token: admin })).data).toEqual({ number: "https://t.me/betdesk" });
  });

  it.each([
    ["/b2c/update-whatsapp", { number: "98-12" }, "number: Must be 7 to 15 digits, optionally after +"],
    ["/b2c/update-whatsapp", { number: "1".repeat(16) }, "number: Must be 7 to 15 digits, optionally after +"],
    ["/b2c/update-whatsapp", { number: 9812345678 }, "number: Expected string, received number"],
    ["/b2c/update-telegram", { number: "" }, "number: Required"],
    ["/b2c/update-telegram", { number: "@bet\u0000desk" }, "number: Must not contain control characters"],
    ["/b2c/update-telegram", { number: "@betdesk", link: "x" }, "body: Unrecognized key(s) in object: 'link'"],
  ])("%s refuses %j with 400, changing nothing", async (path, body, msg) => {
    await expectRefused(settingsFootprint, () => call(app, "POST", path, { token: admin, body }), { statusCode: 400, msg });
  });
});

describe("bonuses", () => {
  it.each([
    ["bonus", 12.5],
    ["main-bonus", 100],
    ["ref-bonus", 2500.75],
  ])("%s saves %d and answers it", async (key, bonus) => {
    const reply = await call(app, "POST", `/b2c/update-${key}`, { token: settingsStaff, body: { bonus } });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Bonus updated successfully" });
    expect((await call(app, "GET", `/b2c/${key}`, { token: settingsStaff })).data).toEqual({ bonus });
    expect((await lastAudit(`settings.${key}`)).change).toMatchObject({ after: { bonus } });
  });

  it.each([
    ["bonus", { bonus: -1 }, "bonus: Must be from 0 to 100"],
    ["bonus", { bonus: 100.01 }, "bonus: Must be from 0 to 100"],
    ["main-bonus", { bonus: 1.005 }, "bonus: Must have at most 2 decimals"],
    ["main-bonus", { bonus: "10" }, "bonus: Expected number, received string"],
    ["ref-bonus", { bonus: 100_000.01 }, "bonus: Must be from 0 to 100000"],
    ["ref-bonus", {}, "bonus: Required"],
    ["bonus", { bonus: 5, extra: 1 }, "body: Unrecognized key(s) in object: 'extra'"],
  ])("%s refuses %j with 400, changing nothing", async (key, body, msg) => {
    await expectRefused(settingsFootprint, () => call(app, "POST", `/b2c/update-${key}`, { token: admin, body }), { statusCode: 400, msg });
  });
});

describe("coupons", () => {
  it("lists the seeded coupons", async () => {
    const reply = await call<Coupon[]>(app, "GET", "/b2c/coupons", { token: admin });
    expect(reply.data).toEqual(
      expect.arrayContaining([{ _id: expect.any(String), couponCode: "WELCOME10", bonus: 10, createdAt: expect.any(String) }]),
    );
  });

  it("adds a coupon trimmed and upper-cased, and lists it first", async () => {
    const code = `NEW${Date.now() % 1_000_000}`;
    const reply = await call<{ _id: string }>(app, "POST", "/b2c/add-coupon", { token: settingsStaff, body: { couponCode: ` ${code.toLowerCase()} `, bonus: 7.5 } });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Coupon added successfully" });
    const list = (await call<Coupon[]>(app, "GET", "/b2c/coupons", { token: admin })).data!;
    expect(list[0]).toEqual({ _id: reply.data!._id, couponCode: code, bonus: 7.5, createdAt: expect.any(String) });
    expect((await lastAudit("settings.coupon")).change).toEqual({ before: null, after: { couponCode: code, bonus: 7.5 } });
  });

  it("refuses a code that exists, whatever its case, with 409 and changes nothing", async () => {
    await expectRefused(settingsFootprint, () => call(app, "POST", "/b2c/add-coupon", { token: admin, body: { couponCode: "welcome10", bonus: 20 } }), { statusCode: 409, msg: "Coupon already exists" });
  });

  it.each([
    [{ couponCode: "AB", bonus: 5 }, "couponCode: Must be 3 to 32 letters or digits"],
    [{ couponCode: "A".repeat(33), bonus: 5 }, "couponCode: Must be 3 to 32 letters or digits"],
    [{ couponCode: "SAVE-10", bonus: 5 }, "couponCode: Must be 3 to 32 letters or digits"],
    [{ couponCode: "SAVE10", bonus: 0 }, "bonus: Must be above 0 and at most 100"],
    [{ couponCode: "SAVE10", bonus: 101 }, "bonus: Must be above 0 and at most 100"],
    [{ couponCode: "SAVE10", bonus: 5.555 }, "bonus: Must have at most 2 decimals"],
    [{ couponCode: "SAVE10" }, "bonus: Required"],
    [{ couponCode: "SAVE10", bonus: 5, _id: "1" }, "body: Unrecognized key(s) in object: '_id'"],
  ])("refuses %j with 400, changing nothing", async (body, msg) => {
    await expectRefused(settingsFootprint, () => call(app, "POST", "/b2c/add-coupon", { token: admin, body }), { statusCode: 400, msg });
  });
});

const slot = (bytes: Buffer, ext: string) => ({ image: bytes.toString("base64"), ext });
const sliderFiles = async () => (await readdir(join(uploadsDir, "slider")).catch(() => [])).sort();
const slider = async () => (await call<SliderImage[]>(app, "GET", "/b2c/slider", { token: admin })).data!;

async function sliderFootprint() {
  return { ...(await settingsFootprint()), files: await sliderFiles() };
}

describe("slider", () => {
  it("stores PNG, JPEG and WebP by content, lists them and serves their bytes", async () => {
    const before = await slider();
    const body = { images: [slot(IMAGES.png, "jpg"), slot(IMAGES.jpg, "png"), slot(IMAGES.webp, "")] };
    const reply = await call(app, "POST", "/b2c/add-slider", { token: settingsStaff, body });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Slider saved successfully" });
    const added = (await slider()).slice(before.length);
    expect(added).toHaveLength(3);
    for (const [index, [mime, bytes]] of ([
      ["image/png", IMAGES.png],
      ["image/jpeg", IMAGES.jpg],
      ["image/webp", IMAGES.webp],
    ] as const).entries()) {
      expect(added[index]!.image).toMatch(/^\/slider-images\/[0-9a-f]{32}\.(png|jpg|webp)$/);
      const file = await app.inject({ method: "GET", url: `/api/admin${added[index]!.image}`, headers: { authorization: `Bearer ${admin}` } });
      expect(file.statusCode).toBe(200);
      expect(file.headers["content-type"]).toBe(mime);
      expect(file.rawPayload.equals(bytes)).toBe(true);
    }
    expect((await lastAudit("settings.slider")).change).toMatchObject({ after: expect.arrayContaining(added.map((row) => row.image.split("/").pop())) });
  });

  it("removes one image and deletes its file", async () => {
    await call(app, "POST", "/b2c/add-slider", { token: admin, body: { images: [slot(IMAGES.png, "png")] } });
    const target = (await slider()).at(-1)!;
    const name = target.image.split("/").pop()!;
    expect(await sliderFiles()).toContain(name);
    const reply = await call(app, "GET", `/b2c/remove-slider/${target._id}`, { token: admin });
    expect({ statusCode: reply.statusCode, msg: reply.msg }).toEqual({ statusCode: 200, msg: "Slider image removed successfully" });
    expect((await slider()).map((row) => row._id)).not.toContain(target._id);
    expect(await sliderFiles()).not.toContain(name);
    const again = await call(app, "GET", `/b2c/remove-slider/${target._id}`, { token: admin });
    expect({ statusCode: again.statusCode, msg: again.msg }).toEqual({ statusCode: 404, msg: "Slider image not found" });
    const file = await app.inject({ method: "GET", url: `/api/admin${target.image}`, headers: { authorization: `Bearer ${admin}` } });
    expect(file.statusCode).toBe(404);
  });

  it("answers 404 for a listed image whose file is gone, and still removes it", async () => {
    const name = "0123456789abcdef0123456789abcdef.png";
    await db.insertInto("slider_images").values({ file_name: name }).execute();
    const target = (await slider()).find((row) => row.image.endsWith(name))!;
    const file = await app.inject({ method: "GET", url: `/api/admin${target.image}`, headers: { authorization: `Bearer ${admin}` } });
    expect(file.statusCode).toBe(404);
    expect((await call(app, "GET", `/b2c/remove-slider/${target._id}`, { token: admin })).statusCode).toBe(200);
  });

  it.each([
    ["a GIF", { images: [slot(IMAGES.png, "png"), slot(IMAGES.gif, "gif")] }, 400, "images.1.image: Image must be a PNG, JPEG or WebP file"],
    ["text named as a PNG", { images: [slot(Buffer.from("hello, not an image"), "png")] }, 400, "images.0.image: Image must be a PNG, JPEG or WebP file"],
    ["a data URL", { images: [{ image: `data:image/png;base64,${IMAGES.png.toString("base64")}`, ext: "png" }] }, 400, "images.0.image: Must be base64 without a data-URL prefix"],
    ["an image above 2 MB", { images: [slot(Buffer.concat([IMAGES.png, Buffer.alloc(2 * 1024 * 1024)]), "png")] }, 413, "images.0.image: Image must be at most 2 MB"],
    ["no image", { images: [] }, 400, "images: At least one image is required"],
    ["five images", { images: Array.from({ length: 5 }, () => slot(IMAGES.png, "png")) }, 400, "images: At most 4 images per call"],
    ["an unknown field", { images: [{ ...slot(IMAGES.png, "png"), name: "a.png" }] }, 400, "images.0: Unrecognized key(s) in object: 'name'"],
  ])("refuses %s, storing no row and no file", async (_case, body, statusCode, msg) => {
    await expectRefused(sliderFootprint, () => call(app, "POST", "/b2c/add-slider", { token: admin, body }), { statusCode, msg });
  });

  it(`holds at most ${SLIDER_MAX_IMAGES} images: a call that would pass the limit stores nothing`, async () => {
    for (let room = SLIDER_MAX_IMAGES - (await slider()).length; room > 0; room -= 1) {
      await call(app, "POST", "/b2c/add-slider", { token: admin, body: { images: [slot(IMAGES.jpg, "jpg")] } });
    }
    await expectRefused(sliderFootprint, () => call(app, "POST", "/b2c/add-slider", { token: admin, body: { images: [slot(IMAGES.png, "png")] } }), { statusCode: 409, msg: `The slider holds at most ${SLIDER_MAX_IMAGES} images` });
    for (const row of await slider()) await call(app, "GET", `/b2c/remove-slider/${row._id}`, { token: admin });
    expect(await sliderFiles()).toEqual([]);
  });
});
