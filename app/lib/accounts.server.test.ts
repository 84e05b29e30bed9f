import { describe, expect, it } from "vitest";
import { partnersCsv } from "./accounts.server";
import { capabilities } from "./capabilities.server";

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
const textOf = (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe("the partners' CSV (the `type` extension of /download-users)", () => {
  it("passes a file whose header ends with Role through unchanged, however its chunks fall", async () => {
    const chunks = ["Username,Bal", "ance,Role\r\npanel1,10.00,", "Admin\r\n"];
    expect(await textOf(await partnersCsv(streamOf(...chunks)))).toBe(chunks.join(""));
    expect(capabilities.lack("downloadUsers", "downloadUsers?type")).toBeNull();
  });

  it("refuses the users' columns an API that ignored `type` answered, and learns the lack", async () => {
    await expect(partnersCsv(streamOf("Username,Balance\r\nuser0001,5.00\r\n"))).rejects.toMatchObject({
      message: "The operator's API lacks this extension: GET /download-users answered the users' columns when asked for partners",
      httpStatus: 404,
    });
    expect(capabilities.lack("downloadUsers", "downloadUsers?type")).toMatch(/users' columns/);
  });
});
