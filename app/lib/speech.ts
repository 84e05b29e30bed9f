/** docs/product.md §8: a new request is announced aloud, 3 times, en-US, rate 0.8, pitch 0. */
import { SPOKEN_ALERT } from "./constants";

export function speakAlert(kind: "deposit" | "withdraw"): void {
  const text = SPOKEN_ALERT.text[kind];
  if (typeof window === "undefined" || !("speechSynthesis" in window)) {
    // docs/product.md §8: where speech is unsupported, a console note instead.
    console.info(`Speech is not supported here: ${text}`);
    return;
  }
  for (let i = 0; i < SPOKEN_ALERT.repeats; i++) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = SPOKEN_ALERT.lang;
    utterance.rate = SPOKEN_ALERT.rate;
    utterance.pitch = SPOKEN_ALERT.pitch;
    window.speechSynthesis.speak(utterance);
  }
}
