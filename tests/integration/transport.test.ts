import CryptoJS from "crypto-js";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seal } from "../../protocol/envelope.js";
import { DEMO_ACCOUNTS } from "../../platform/seed.js";
import { call, createAdmin, freshIp, login, TEST_SECRET, testApp } from "./support/platform.js";

let app: FastifyInstance;

beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const FAIL = { status: "FAIL", data: null };

describe("GET /api/health", () => {
  it("answers SUCCESS without a token", async () => {
    const reply = await call(app, "GET", "/api/health");
    expect(reply).toMatchObject({ statusCode: 200, status: "SUCCESS", data: { database: "up" } });
  });
});

describe("failures", () => {
  it("answers an unknown route with 404 FAIL, with or without a token", async () => {
    expect(await call(app, "GET", "/api/nowhere")).toMatchObject({ statusCode: 404, ...FAIL });
    expect(await call(app, "GET", "/nowhere-at-all")).toMatchObject({ statusCode: 404, ...FAIL });
    expect(await call(app, "POST", "/no-such-call", { body: {} })).toMatchObject({ statusCode: 404, ...FAIL });
    expect(await call(app, "POST", "/no-such-call", { rawBody: { payload: "junk" } })).toMatchObject({ statusCode: 404 });
  });

  it("answers an oversize body with 413 FAIL", async () => {
    const small = await testApp({ PLATFORM_BODY_LIMIT: 1024 });
    try {
      const reply = await call(small, "POST", "/login", { rawBody: { payload: "A".repeat(2048) } });
      expect(reply).toMatchObject({ statusCode: 413, ...FAIL, msg: "Request body is too large" });
    } finally {
      await small.close();
    }
  });

  it("answers a body over the default 1 MiB limit with 413 FAIL", async () => {
    const reply = await call(app, "POST", "/login", { body: { username: "admin", password: "x".repeat(1024 * 1024) } });
    expect(reply).toMatchObject({ statusCode: 413, ...FAIL });
  });

  it("answers a non-JSON content type with 415 FAIL", async () => {
    const reply = await call(app, "POST", "/login", { rawBody: "payload", headers: { "content-type": "text/plain" } });
    expect(reply).toMatchObject({ statusCode: 415, ...FAIL, msg: "Unsupported Media Type" });
  });
});

describe("the envelope", () => {
  const malformed: [string, string | object][] = [
    ["a payload that is not base64", { payload: "not base64 at all!" }],
    ["a payload sealed with another key", { payload: seal(DEMO_ACCOUNTS.admin, "another-secret") }],
    ["a missing payload", { username: "admin", password: "admin123" }],
    ["a payload that is not text", { payload: 42 }],
    ["a body that is not JSON", "{payload:"],
  ];

  it.each(malformed)("refuses %s with 400 Invalid payload, changing nothing", async (_case, rawBody) => {
    const admin = await createAdmin();
    const token = await login(app, admin.username, admin.password, freshIp());
    const login400 = await call(app, "POST", "/login", { rawBody, headers: { "content-type": "application/json" } });
    expect(login400).toEqual({ statusCode: 400, ...FAIL, msg: "Invalid payload", sealed: null });

    const change = await call(app, "POST", "/change-password", { rawBody, token, headers: { "content-type": "application/json" } });
    expect(change).toMatchObject({ statusCode: 400, msg: "Invalid payload" });
    await expect(login(app, admin.username, admin.password, freshIp())).resolves.toEqual(expect.any(String));
  });

  it("opens a payload sealed by crypto-js", async () => {
    const payload = CryptoJS.AES.encrypt(JSON.stringify(DEMO_ACCOUNTS.admin), TEST_SECRET).toString();
    const reply = await call(app, "POST", "/login", { rawBody: { payload }, ip: freshIp() });
    expect(reply).toMatchObject({ statusCode: 200, status: "SUCCESS" });
  });

  it("refuses a decrypted body of the wrong shape with 400 naming the field", async () => {
    const reply = await call(app, "POST", "/login", { body: { username: 7, password: "x" }, ip: freshIp() });
    expect(reply).toMatchObject({ statusCode: 400, ...FAIL, msg: expect.stringMatching(/^username: /) });
    const notAnObject = await call(app, "POST", "/login", { body: "admin", ip: freshIp() });
    expect(notAnObject).toMatchObject({ statusCode: 400, msg: expect.stringMatching(/^body: /) });
  });
});

describe("authentication", () => {
  it.each([
    ["no Authorization header", {}],
    ["an unknown token", { authorization: "Bearer not-a-token-we-issued" }],
    ["a non-bearer scheme", { authorization: "Basic YWRtaW46YWRtaW4xMjM=" }],
  ])("answers %s with 401 Admin not found", async (_case, headers) => {
    for (const path of ["/b2c/admin", "/permissions", "/partner-roles"]) {
      const reply = await call(app, "GET", path, { headers });
      expect(reply).toEqual({ statusCode: 401, ...FAIL, msg: "Admin not found", sealed: null });
    }
    const post = await call(app, "POST", "/change-password", { body: { curPassword: "a", password: "bbbbbb" }, headers });
    expect(post).toMatchObject({ statusCode: 401, msg: "Admin not found" });
  });
});
