import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { consoleApp } from "./express-app.server";

const STACK = /node_modules|\bat \w+|URIError|\/work\//;

let server: Server;
let origin: string;

beforeAll(async () => {
  // A build that cannot load: the error every request meets is one nobody expected.
  const app = consoleApp({ build: () => Promise.reject(new Error("boom in /work/secret/build.js")), mode: "development", assets: [] });
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe("the console's error handler (issue 15 item 7)", () => {
  it.each(["/%", "/resources/slider/%E0%A4%A", "/users/%zz"])("answers GET %s a short 400, no stack", async (path) => {
    const response = await fetch(`${origin}${path}`);
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toBe("Malformed URL");
    expect(text).not.toMatch(STACK);
  });

  it("answers an unexpected error a short 500 and logs its stack on the server only", async () => {
    const logged = vi.mocked(console.error).mockImplementationOnce(() => undefined);
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe("Something went wrong");
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ message: "boom in /work/secret/build.js" }));
  });
});
