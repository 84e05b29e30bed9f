import { describe, expect, it } from "vitest";
import { consoleUpstream } from "./console-upstream";

describe("consoleUpstream", () => {
  it("points every unset address at the platform's port", () => {
    expect(consoleUpstream({}, "4471")).toEqual({
      ADMIN_API_URL: "http://127.0.0.1:4471/api/admin",
      SPORTS_API_URL: "http://127.0.0.1:4471/api/sports",
      SOCKET_URL: "http://127.0.0.1:4471",
    });
  });

  it("keeps each address set explicitly, and derives only the others", () => {
    expect(consoleUpstream({ SPORTS_API_URL: "https://sports.example.invalid/api", SOCKET_URL: "" }, "4471")).toEqual({
      ADMIN_API_URL: "http://127.0.0.1:4471/api/admin",
      SPORTS_API_URL: "https://sports.example.invalid/api",
      SOCKET_URL: "http://127.0.0.1:4471",
    });
  });
});
