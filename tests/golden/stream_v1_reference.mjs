// An independent re-derivation of seeded stream v1 from docs/reference/stream-v1.md, in JavaScript.
// Usage: node stream_v1_reference.mjs  -> prints golden vectors as JSON on stdout.
import { createHmac } from "node:crypto";

function* words(seed) {
  const key = Buffer.from(seed, "utf8");
  for (let block = 0n; ; block++) {
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(block);
    const digest = createHmac("sha256", key).update(counter).digest();
    for (let k = 0; k < 32; k += 4) yield digest.readUInt32BE(k);
  }
}

function makeStream(seed) {
  const source = words(seed);
  const next = () => source.next().value;
  return {
    next,
    below(m) {
      const limit = Math.floor(2 ** 32 / m) * m;
      let w = next();
      while (w >= limit) w = next();
      return w % m;
    },
    random() {
      const a = next(), b = next();
      return ((a >>> 5) * 67108864 + (b >>> 6)) / 2 ** 53;
    },
  };
}

function fisherYates(n, stream) {
  const deck = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i >= 1; i--) {
    const j = stream.below(i + 1);
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

const SEEDS = ["", "0", "shuffle-lab", "héllo wörld", "🂡🂮 ♠♥", "草", "Kv3h2Zx8T0mYpQ7wL5cN1bR9sD4fG6jH2kA8eU0oI3y"];
const SIZES = [1, 2, 3, 10, 52, 108];
const out = {
  spec: "stream v1: HMAC-SHA256(utf8(seed), uint64be(counter)), eight big-endian uint32 words per block",
  words: SEEDS.map((seed) => {
    const s = makeStream(seed);
    return { seed, first: Array.from({ length: 20 }, () => s.next()) };
  }),
  below: SEEDS.map((seed) => {
    const s = makeStream(seed);
    const bounds = [1, 2, 3, 52, 1000, 2 ** 31 + 1, 2 ** 32, 7, 3000000000];
    return { seed, bounds, values: bounds.map((m) => s.below(m)) };
  }),
  random: SEEDS.map((seed) => {
    const s = makeStream(seed);
    return { seed, values: Array.from({ length: 5 }, () => s.random()) };
  }),
  fisher_yates: SEEDS.flatMap((seed) => SIZES.map((n) => ({ seed, n, order: fisherYates(n, makeStream(seed)) }))),
};
process.stdout.write(JSON.stringify(out, null, 1) + "\n");
