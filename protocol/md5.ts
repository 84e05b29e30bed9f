/**
 * MD5 (RFC 1321) in plain JavaScript, for the envelope's key derivation only (protocol/envelope.ts).
 * Its inputs are a few dozen bytes; at that size a call into OpenSSL (`crypto.hash`) costs about
 * three times this loop, and the envelope makes six per round trip (docs/benchmarks.md, the envelope).
 * Not a security primitive here: the wire format fixes MD5, and protocol/md5.test.ts checks it
 * against node:crypto.
 */
const K = Int32Array.from({ length: 64 }, (_, i) => Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0);
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const INITIAL = [0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476];

const state = new Int32Array(4);
const words = new Int32Array(16);
const tail = new Uint8Array(128);

function block(bytes: Uint8Array, at: number): void {
  for (let j = 0, p = at; j < 16; j++, p += 4) {
    words[j] = bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24);
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  for (let i = 0; i < 64; i++) {
    let f: number;
    let g: number;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) & 15;
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) & 15;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) & 15;
    }
    const shift = SHIFTS[((i >> 4) << 2) | (i & 3)]!;
    const sum = (a + f + K[i]! + words[g]!) | 0;
    a = d;
    d = c;
    c = b;
    b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
}

/** Writes the 16-byte MD5 digest of `input` into `out` at `offset`. */
export function md5Into(input: Uint8Array, out: Uint8Array, offset = 0): void {
  state.set(INITIAL);
  const whole = input.length - (input.length % 64);
  for (let at = 0; at < whole; at += 64) block(input, at);
  const rest = input.length - whole;
  const padded = rest < 56 ? 64 : 128;
  tail.fill(0);
  // The envelope's inputs are under a block: no view to make of them.
  tail.set(whole === 0 ? input : input.subarray(whole));
  tail[rest] = 0x80;
  const bits = input.length * 8;
  for (let i = 0; i < 4; i++) tail[padded - 8 + i] = (bits >>> (8 * i)) & 0xff;
  tail[padded - 4] = Math.floor(bits / 2 ** 32) & 0xff;
  block(tail, 0);
  if (padded === 128) block(tail, 64);
  for (let i = 0; i < 16; i++) out[offset + i] = (state[i >> 2]! >>> (8 * (i & 3))) & 0xff;
}
