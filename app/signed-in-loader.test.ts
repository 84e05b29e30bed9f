import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it, vi } from "vitest";

// The upstream API: an operator's API without /resettle-bet.
const callApi = vi.fn((name: string) => {
  if (name === "currentAdmin") return Promise.resolve({ _id: "1", udid: "u", username: "admin", role: 1, balance: "unlimited", permissions: "{}" });
  if (name === "deposits" || name === "withdraws") return Promise.resolve({ items: [], total: 0, page: 1, pageSize: 1 });
  return Promise.reject(new ApiError("Not found", 404));
});
vi.mock("./lib/api.server", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./lib/api.server")>()),
  callApi: (name: string) => callApi(name),
  exchangeApi: async (name: string) => ({ data: await callApi(name), httpStatus: 200, message: "" }),
}));

const { ApiError } = await import("./lib/api.server");
const { beginSession, callAsOperator } = await import("./lib/session.server");
const { loader } = await import("./routes/_app");

const { openConsoleStore } = await import("./lib/store/open.server");

// The refused resettlement is tried upstream, so the audit trail records it.
const context: AppLoadContext = { clientIp: "10.1.2.3", store: await openConsoleStore({ kind: "pglite", dataDir: null }) };
const cookie = (await beginSession(new Request("http://console.test/"), context, { token: "tok", udid: "u", username: "admin", role: 1, factor: "password" })).split(";")[0]!;
const signedIn = async () => new Request("http://console.test/", { headers: { Cookie: cookie } });

describe("the signed-in layout's loader", () => {
  it("tells the browser the extension calls the operator's API showed missing, and nothing before", async () => {
    expect((await loader({ request: await signedIn(), context, params: {} })).lacking).toEqual({});
    await expect(callAsOperator(await signedIn(), context, "resettleBet", { bet: { _id: "42" } as never, status: 1 })).rejects.toThrow(
      "The operator's API lacks this extension: POST /resettle-bet answered 404",
    );
    expect((await loader({ request: await signedIn(), context, params: {} })).lacking).toEqual({
      resettleBet: "The operator's API lacks this extension: POST /resettle-bet answered 404",
    });
  });
});
