// An independent re-derivation of sealed deals (shufflelab-seal-v1) from docs/reference/seal-v1.md, in JavaScript.
// Usage: node seal_v1_reference.mjs seal_v1.json  -> prints, for every vector, the preimage and the
// commitment derived from its inputs, and for fisher-yates deals the cards (order, hands, stock),
// as JSON on stdout. tests/unit/test_seal.py compares them with the vectors.
import { createHash, createHmac } from "node:crypto";
import { readFileSync } from "node:fs";

// The algorithms' parameters in the catalog's order (only riffle-gsr, riffle-physical and cut-insert have one).
function preimage(v) {
  const lines = ["shufflelab-seal-v1", "stream=1", `algo=${v.algo}`];
  for (const [name, value] of Object.entries(v.params)) lines.push(`param.${name}=${value}`);
  lines.push(`deck=${v.deck.kind}`);
  if (v.deck.kind === "numbered") lines.push(`size=${v.deck.size}`);
  else lines.push(`packs=${v.deck.packs}`, `jokers=${v.deck.jokers}`);
  lines.push(`players=${v.players}`, `cards=${v.cards_each}`, `style=${v.style}`);
  lines.push(`player-seed=${v.player_seed === null ? "no" : "yes"}`, `seed=${v.seed}`);
  return Buffer.from(lines.map((line) => line + "\n").join(""), "utf8");
}

function lengthPrefixed(text) {
  const bytes = Buffer.from(text, "utf8");
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function streamKey(v) {
  if (v.player_seed === null) return Buffer.from(v.seed, "utf8");
  return Buffer.concat([Buffer.from("shufflelab-v1-mix\0", "latin1"), lengthPrefixed(v.seed), lengthPrefixed(v.player_seed)]);
}

function makeStream(key) {
  let block = 0n, words = [];
  const next = () => {
    if (!words.length) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(block++);
      const digest = createHmac("sha256", key).update(counter).digest();
      for (let k = 0; k < 32; k += 4) words.push(digest.readUInt32BE(k));
    }
    return words.shift();
  };
  return {
    below(m) {
      const limit = Math.floor(2 ** 32 / m) * m;
      let w = next();
      while (w >= limit) w = next();
      return w % m;
    },
  };
}

function deckSize(deck) {
  if (deck.kind === "numbered") return deck.size;
  const ranks = { standard: 13, piquet: 8, euchre: 6 }[deck.kind];
  return deck.packs * (4 * ranks + deck.jokers);
}

function cards(v) {
  const stream = makeStream(streamKey(v));
  const order = Array.from({ length: deckSize(v.deck) }, (_, i) => i);
  for (let i = order.length - 1; i >= 1; i--) {
    const j = stream.below(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const { players, cards_each: each, style } = v;
  const dealt = players * each;
  let hands, stock;
  if (style === "round-robin") {
    hands = Array.from({ length: players }, (_, p) => order.slice(0, dealt).filter((_, k) => k % players === p));
    stock = order.slice(dealt);
  } else if (style === "blocks") {
    hands = Array.from({ length: players }, (_, p) => order.slice(p * each, (p + 1) * each));
    stock = order.slice(dealt);
  } else {
    stock = order.slice();
    hands = Array.from({ length: players }, () => Array.from({ length: each }, () => stock.splice(stream.below(stock.length), 1)[0]));
  }
  return { order, hands, stock };
}

const golden = JSON.parse(readFileSync(process.argv[2], "utf8"));
const out = golden.seals.map((v) => {
  const bytes = preimage(v);
  const derived = { preimage: bytes.toString("utf8"), commitment: createHash("sha256").update(bytes).digest("hex") };
  return v.algo === "fisher-yates" ? { ...derived, ...cards(v) } : derived;
});
process.stdout.write(JSON.stringify(out) + "\n");
