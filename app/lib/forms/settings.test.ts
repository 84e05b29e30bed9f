import { describe, expect, it } from "vitest";
import { bankDetailsInput, bankDetailsSchema, couponSchema, SIMPLE_SETTINGS, sliderFileProblem, sliderSchema } from "./settings";
import { addStaffInput, staffActionSchema, staffFlagsText } from "./staff";

const form = (entries: Array<[string, string]>) => {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
};

describe("settings forms hold the platform's bounds", () => {
  it("bonuses are percentages with 2 decimals; the refer bonus an INR amount up to 1,00,000", () => {
    const bonus = SIMPLE_SETTINGS.bonus.schema;
    expect(bonus.parse({ bonus: "12.5" })).toEqual({ bonus: 12.5 });
    expect(bonus.safeParse({ bonus: "100.01" }).error?.issues[0]?.message).toBe("Bonus must be from 0 to 100");
    expect(bonus.safeParse({ bonus: "1.234" }).error?.issues[0]?.message).toBe("Bonus must be a number with at most 2 decimals");
    expect(bonus.safeParse({ bonus: "-1" }).success).toBe(false);
    expect(SIMPLE_SETTINGS.refBonus.schema.parse({ bonus: "100000" })).toEqual({ bonus: 100000 });
    expect(SIMPLE_SETTINGS.refBonus.schema.safeParse({ bonus: "100000.01" }).success).toBe(false);
  });

  it("WhatsApp takes 7 to 15 digits after an optional +, Telegram 1 to 100 characters", () => {
    expect(SIMPLE_SETTINGS.whatsapp.schema.parse({ number: " +919876543210 " })).toEqual({ number: "+919876543210" });
    expect(SIMPLE_SETTINGS.whatsapp.schema.safeParse({ number: "12345" }).success).toBe(false);
    expect(SIMPLE_SETTINGS.telegram.schema.safeParse({ number: "  " }).error?.issues[0]?.message).toBe("Telegram is required");
    expect(SIMPLE_SETTINGS.telegram.schema.safeParse({ number: "a\nb" }).success).toBe(false);
  });

  it("a coupon's code is upper-cased and its bonus is above 0 and at most 100", () => {
    expect(couponSchema.parse({ couponCode: " welcome10 ", bonus: "10" })).toEqual({ couponCode: "WELCOME10", bonus: 10 });
    expect(couponSchema.safeParse({ couponCode: "WELCOME", bonus: "0" }).error?.issues[0]?.message).toBe("Coupon bonus must be above 0 and at most 100");
    expect(couponSchema.safeParse({ couponCode: "no spaces", bonus: "5" }).success).toBe(false);
  });

  it("bank details pair the UPI fields in order and need at least one entry", () => {
    const input = bankDetailsInput(
      form([
        ["bankName", "State Bank"], ["holder", "Betdesk Ltd"], ["accNo", "12345678901"], ["ifsc", "sbin0001234"], ["usdt", ""],
        ["upiValue", "pay@okbank"], ["upiToken", "t1"], ["upiValue", "cash@ybl"], ["upiToken", ""],
      ]),
    );
    expect(bankDetailsSchema.parse(input)).toMatchObject({
      ifsc: "SBIN0001234",
      upiId: [{ value: "pay@okbank", token: "t1" }, { value: "cash@ybl", token: "" }],
    });
    expect(bankDetailsSchema.safeParse({ ...input, upiId: [] }).error?.issues[0]?.message).toBe("At least one UPI entry is required");
    expect(bankDetailsSchema.safeParse({ ...input, upiId: [{ value: "not-upi", token: "" }] }).success).toBe(false);
  });

  it("slider files are PNG, JPEG or WebP up to 2 MB, sent as plain base64", () => {
    expect(sliderFileProblem({ type: "image/png", size: 1000 })).toBeNull();
    expect(sliderFileProblem({ type: "image/gif", size: 1000 })).toBe("Image must be a PNG, JPEG or WebP file");
    expect(sliderFileProblem({ type: "image/webp", size: 2 * 1024 * 1024 + 1 })).toBe("Image must be at most 2 MB");
    expect(sliderSchema.safeParse({ intent: "upload", images: [{ image: "data:image/png;base64,AAAA", ext: "png" }] }).success).toBe(false);
    expect(sliderSchema.safeParse({ intent: "upload", images: [] }).error?.issues[0]?.message).toBe("Choose an image first");
  });
});

describe("staff forms", () => {
  it("reads the flags from the screen's boxes or the palette's comma-separated answer", () => {
    const boxes = addStaffInput(form([["intent", "add"], ["username", "cashier"], ["password", "secret1"], ["flag", "deposits"], ["flag", "users"]]));
    expect(staffActionSchema.parse(boxes)).toEqual({ intent: "add", username: "cashier", password: "secret1", flags: ["deposits", "users"] });
    const palette = addStaffInput(form([["intent", "add"], ["username", "cashier"], ["password", "secret1"], ["flag", "deposits,bets"]]));
    expect(staffActionSchema.parse(palette)).toMatchObject({ flags: ["deposits", "bets"] });
    expect(staffActionSchema.safeParse({ ...boxes, flags: ["cricket"] }).success).toBe(false);
  });

  it("takes the palette's flags as names or none, and refuses anything else", () => {
    expect(staffFlagsText.parse("Deposits, withdraws")).toEqual(["deposits", "withdraws"]);
    expect(staffFlagsText.parse("none")).toEqual([]);
    expect(staffFlagsText.safeParse("deposits admin").error?.issues[0]?.message).toBe("Flags are report, users, deposits, withdraws, settings, bets or none");
  });
});
