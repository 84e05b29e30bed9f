import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleApp } from "./express-app.server";
import { createConsoleLogger, installRootLogger } from "./observability/context.server";

const STACK = /node_modules|\bat \w+|URIError|\/work\//;

let server: Server;
let origin: string;
const logged: string[] = [];

beforeAll(async () => {
  installRootLogger(createConsoleLogger({ level: "info", destination: { write: (line: string) => void logged.push(line) } }));
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
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe("Something went wrong");
    const errors = logged.map((line) => JSON.parse(line) as { err?: { message: string; stack: string } }).filter((line) => line.err);
    expect(errors).toContainEqual(expect.objectContaining({ err: expect.objectContaining({ message: "boom in /work/secret/build.js", stack: expect.any(String) }) }));
  });
});
