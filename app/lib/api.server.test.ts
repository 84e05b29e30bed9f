import CryptoJS from "crypto-js";
import { describe, expect, it, vi } from "vitest";
import { ApiError, createApiClient, createDownloader, moneyCall } from "./api.server";
import type { Transport } from "./http-transport.server";

const SECRET = "test-secret";
const sealed = (value: unknown) => CryptoJS.AES.encrypt(JSON.stringify(value), SECRET).toString();
const reply = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

function clientWith(fetchImpl: (url: URL, init: RequestInit) => Promise<Response>, timeoutMs = 1000) {
  const fetchSpy = vi.fn(fetchImpl);
  const call = createApiClient({
    bases: { admin: "http://api.test/api/admin", sports: "http://api.test/api/sports" },
    secret: SECRET,
    timeoutMs,
    routing: { permissions: "sports" },
    transport: fetchSpy as unknown as Transport,
  });
  return { call, fetchSpy };
}

describe("API client", () => {
  it("seals POST bodies, sends the bearer token and opens the answer", async () => {
    const { call, fetchSpy } = clientWith(async () => reply({ status: "SUCCESS", msg: "", data: sealed({ token: "t1" }) }));
    await expect(call("login", { username: "admin", password: "pw" }, { clientIp: "10.0.0.9" })).resolves.toEqual({
      token: "t1",
    });
    const [url, init] = fetchSpy.mock.calls[0]!;
    expect(String(url)).toBe("http://api.test/api/admin/login");
    const payload = JSON.parse(init.body as string).payload as string;
    expect(JSON.parse(CryptoJS.AES.decrypt(payload, SECRET).toString(CryptoJS.enc.Utf8))).toEqual({
      username: "admin",
      password: "pw",
    });
    expect((init.headers as Record<string, string>)["X-Forwarded-For"]).toBe("10.0.0.9");
  });

  it("fills path parameters on GET and follows routing overrides", async () => {
    const { call, fetchSpy } = clientWith(async () => reply({ status: "SUCCESS", msg: "", data: sealed(true) }));
    await call("isLogouted", { udid: "u-1" }, { token: "tok" });
    await call("permissions", undefined, { token: "tok" });
    expect(String(fetchSpy.mock.calls[0]![0])).toBe("http://api.test/api/admin/is-logouted/u-1");
    expect((fetchSpy.mock.calls[0]![1].headers as Record<string, string>).Authorization).toBe("Bearer tok");
    expect(String(fetchSpy.mock.calls[1]![0])).toBe("http://api.test/api/sports/permissions");
  });

  it("rejects with the server's msg, or the fallback when it is empty", async () => {
    const failing = clientWith(async () => reply({ status: "FAIL", msg: "Invalid username or password", data: null }, 401));
    await expect(failing.call("login", { username: "a", password: "b" }, {})).rejects.toMatchObject({
      message: "Invalid username or password",
      httpStatus: 401,
      endsSession: false,
    });
    const empty = clientWith(async () => reply({ status: "FAIL", msg: "", data: null }, 500));
    await expect(empty.call("currentAdmin", undefined, { token: "t" })).rejects.toThrow("Something went wrong");
  });

  it("marks 'Admin not found' as the end of the session", async () => {
    const { call } = clientWith(async () => reply({ status: "FAIL", msg: "Admin not found", data: null }, 401));
    const error = await call("currentAdmin", undefined, { token: "t" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).endsSession).toBe(true);
  });

  it("turns network failures, timeouts and garbage into 'Something went wrong', calling once", async () => {
    const down = clientWith(async () => {
      throw new TypeError("fetch failed");
    });
    await expect(down.call("changePassword", { curPassword: "a", password: "b" }, { token: "t" })).rejects.toThrow(
      "Something went wrong",
    );
    expect(down.fetchSpy).toHaveBeenCalledTimes(1);

    const slow = clientWith(
      (_, init) =>
        new Promise((_resolve, reject) => init.signal?.addEventListener("abort", () => reject(init.signal?.reason))),
      50,
    );
    await expect(slow.call("currentAdmin", undefined, { token: "t" })).rejects.toThrow("Something went wrong");

    const garbage = clientWith(async () => new Response("<html>bad gateway</html>", { status: 502 }));
    await expect(garbage.call("currentAdmin", undefined, { token: "t" })).rejects.toMatchObject({ httpStatus: null });

    const undecryptable = clientWith(async () => reply({ status: "SUCCESS", msg: "", data: "garbage" }));
    await expect(undecryptable.call("currentAdmin", undefined, { token: "t" })).rejects.toThrow("Something went wrong");
  });
});

describe("money calls whose answer was lost", () => {
  const deposit = (answer: () => Promise<Response>) =>
    moneyCall(clientWith(answer).call("userDeposit", { user: "u1", isPartner: false, amount: 100, requestId: "r-12345678" }, { token: "t" }));

  it("say the outcome is unknown (no answer, a timeout, a 5xx, a success that could not be read): it may have moved the money", async () => {
    const unknown = "Unknown: check before retrying (Something went wrong)";
    await expect(deposit(async () => Promise.reject(new TypeError("fetch failed")))).rejects.toThrow(unknown);
    await expect(deposit(async () => reply({ status: "FAIL", msg: "Something went wrong", data: null }, 500))).rejects.toThrow(unknown);
    await expect(deposit(async () => reply({ status: "SUCCESS", msg: "", data: "garbage" }))).rejects.toThrow(unknown);
  });

  it("keep a refusal as it is: a 4xx did nothing, so it can be corrected and sent again", async () => {
    await expect(deposit(async () => reply({ status: "FAIL", msg: "Insufficient balance", data: null }, 400))).rejects.toThrow(
      new ApiError("Insufficient balance", 400),
    );
    expect([400, 403, 404].map((status) => new ApiError("x", status).outcomeUnknown)).toEqual([false, false, false]);
  });
});

describe("file downloads", () => {
  const downloaderWith = (fetchImpl: (url?: URL) => Promise<Response>) =>
    createDownloader({
      bases: { admin: "http://api.test/api/admin", sports: "http://api.test/api/sports" },
      secret: SECRET,
      timeoutMs: 1000,
      routing: {},
      fetch: fetchImpl as unknown as typeof fetch,
    });

  it("passes a file answer through untouched, asking with the list's query", async () => {
    let asked = "";
    const download = downloaderWith(async (url?: URL) => {
      asked = String(url);
      return new Response("ID,Username\n1,a\n", { headers: { "Content-Type": "text/csv" } });
    });
    const response = await download("downloadUsers", { type: "users", username: "ab" }, { token: "t" });
    expect(await response.text()).toBe("ID,Username\n1,a\n");
    expect(asked).toBe("http://api.test/api/admin/download-users?type=users&username=ab");
  });

  it("turns an envelope failure or no answer into an ApiError", async () => {
    const refused = downloaderWith(async () => reply({ status: "FAIL", msg: "Permission denied", data: null }, 403));
    await expect(refused("downloadUsers", { type: "users" }, { token: "t" })).rejects.toMatchObject({
      message: "Permission denied",
      httpStatus: 403,
    });
    const down = downloaderWith(async () => {
      throw new TypeError("fetch failed");
    });
    await expect(down("downloadUsers", { type: "users" }, { token: "t" })).rejects.toThrow("Something went wrong");
  });
});
