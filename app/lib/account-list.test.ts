import { describe, expect, it } from "vitest";
import { accountQueryString, readAccountQuery, usersDownloadHref } from "./account-list";

describe("account list query", () => {
  it("reads defaults and survives nonsense", () => {
    expect(readAccountQuery(new URLSearchParams(""))).toEqual({ page: 1, search: "", orderBy: "createdAt", isAcc: false });
    expect(readAccountQuery(new URLSearchParams("page=-3&orderBy=password&isAcc=maybe"))).toEqual({
      page: 1,
      search: "",
      orderBy: "createdAt",
      isAcc: false,
    });
    expect(readAccountQuery(new URLSearchParams("page=4&search=%20ab%20&orderBy=balance&isAcc=true"))).toEqual({
      page: 4,
      search: "ab",
      orderBy: "balance",
      isAcc: true,
    });
  });

  it("writes only what differs from the defaults and resets the page on a new search or sort", () => {
    const current = readAccountQuery(new URLSearchParams("page=3&search=ab"));
    expect(accountQueryString(current, { page: 4 })).toBe("?page=4&search=ab");
    expect(accountQueryString(current, { search: "abc" })).toBe("?search=abc");
    expect(accountQueryString(current, { orderBy: "balance", isAcc: true })).toBe("?search=ab&orderBy=balance&isAcc=true");
    expect(accountQueryString(readAccountQuery(new URLSearchParams("")), {})).toBe("");
  });
});

describe("Download Users address", () => {
  it("keeps a users list's search, sort and panel, and nothing from elsewhere", () => {
    expect(usersDownloadHref({ pathname: "/users", search: "?search=user000&page=3" })).toBe(
      "/resources/accounts/users/download?search=user000",
    );
    expect(usersDownloadHref({ pathname: "/users/7", search: "?orderBy=balance&isAcc=true" })).toBe(
      "/resources/accounts/users/download?orderBy=balance&isAcc=true&partner=7",
    );
    expect(usersDownloadHref({ pathname: "/partners", search: "?search=panel1" })).toBe("/resources/accounts/users/download");
  });
});
