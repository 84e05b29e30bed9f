/** Polls a URL until it answers 2xx, for the launcher and the benchmarks. */
export async function waitForOk(url: string, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not answer ${url} within ${timeoutMs / 1000} s`);
}
