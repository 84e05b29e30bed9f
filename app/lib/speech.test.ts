import { afterEach, describe, expect, it, vi } from "vitest";
import { speakAlert } from "./speech";

afterEach(() => vi.unstubAllGlobals());

describe("spoken alerts", () => {
  it("speaks the spec's words 3 times in en-US at rate 0.8 and pitch 0", () => {
    const spoken: Array<{ text: string; lang: string; rate: number; pitch: number }> = [];
    vi.stubGlobal(
      "SpeechSynthesisUtterance",
      class {
        lang = "";
        rate = 1;
        pitch = 1;
        constructor(readonly text: string) {}
      },
    );
    vi.stubGlobal("window", { speechSynthesis: { speak: (u: (typeof spoken)[number]) => spoken.push(u) } });
    speakAlert("withdraw");
    expect(spoken).toHaveLength(3);
    expect(spoken[0]).toMatchObject({ text: "New Withdrawal Request", lang: "en-US", rate: 0.8, pitch: 0 });
  });

  it("leaves a console note where speech is unsupported", () => {
    vi.stubGlobal("window", {});
    const note = vi.spyOn(console, "info").mockImplementation(() => {});
    speakAlert("deposit");
    expect(note).toHaveBeenCalledWith(expect.stringContaining("New Deposit Request"));
  });
});
