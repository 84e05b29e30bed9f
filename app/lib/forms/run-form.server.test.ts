import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readForm, readJson } from "./run-form.server";

const post = (type: string, body: string) => new Request("http://console.test/x", { method: "POST", headers: { "Content-Type": type }, body });

async function thrownBy(work: Promise<unknown>): Promise<Response> {
  const thrown = await work.then(
    () => null,
    (error: unknown) => error,
  );
  if (!(thrown instanceof Response)) throw new Error(`expected a thrown Response, got ${String(thrown)}`);
  return thrown;
}

describe("reading what an action was sent (issue 15 item 6)", () => {
  it("reads a urlencoded form", async () => {
    expect((await readForm(post("application/x-www-form-urlencoded", "a=1&b=2"))).get("b")).toBe("2");
  });

  it.each([
    ["JSON", "application/json", "{bad"],
    ["plain text", "text/plain", "garbage"],
    ["a multipart body without its boundary", "multipart/form-data", "garbage"],
  ])("refuses %s as a form with a 400 that says why", async (_case, type, body) => {
    const response = await thrownBy(readForm(post(type, body)));
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/^The request body is not a form/);
  });

  it("refuses JSON that does not parse with a 400", async () => {
    const response = await thrownBy(readJson(post("application/json", "{bad")));
    expect(response.status).toBe(400);
    expect(await response.text()).toBe("The request body is not valid JSON");
  });

  it("is the one place an action reads its body, so every action answers an unreadable one 400", () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) return sources(path);
        return /\.tsx?$/.test(name) && !name.includes(".test.") ? [path] : [];
      });
    const raw = sources("app")
      .filter((file) => !file.endsWith("run-form.server.ts"))
      .filter((file) => /\brequest\.(formData|json)\(\)(?!\.catch)/.test(readFileSync(file, "utf8")));
    expect(raw).toEqual([]);
  });
});
