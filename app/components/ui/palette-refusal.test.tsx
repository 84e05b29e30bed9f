import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { commandById, commandsFor } from "../../commands/registry";
import { CommandRow } from "./Palette";

const admin = { username: "admin", role: 1 as const, flags: {} };
const reason = "The operator's API lacks this extension: POST /resettle-bet answered 404";

describe("the palette's row of a command", () => {
  it("on an API without /resettle-bet shows Resettle bet… dimmed, saying why", () => {
    const resettle = commandsFor(admin, null, { resettleBet: reason }).find((command) => command.id === "bets.resettle")!;
    const html = renderToStaticMarkup(<CommandRow command={resettle} />);
    expect(html).toContain('class="palette-title dim"');
    expect(html).toContain(`Resettle bet…<span class="palette-refusal"> · ${reason.replace("'", "&#x27;")}</span>`);
  });

  it("shows a command the API serves as it always did", () => {
    const html = renderToStaticMarkup(<CommandRow command={commandById("bets.resettle")} />);
    expect(html).toBe('<span class="palette-title">Resettle bet…</span><span class="palette-group">Bets</span>');
  });
});
