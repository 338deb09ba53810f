// What both halves of Duel's table share: players by name, wonder and progress-token tiles with
// their sentence written out, and card names that break between syllables on a narrow phone.
import { componentTile } from "./cards.js";
import { tokenInfo, wonderInfo } from "./catalog.js";
import { h } from "./ui.js";

// A player by name, never by seat number.
export function who(ctx, seat) {
  return ctx.name(seat);
}

export function possessive(name) {
  return `${name}’s`;
}

// A tile (wonder, progress token) with its sentence written out under the icons.
function tileWithText(info, opts = {}) {
  const tile = componentTile(info, opts);
  tile.append(h("span", { class: "tile-text" }, [info.text]));
  return tile;
}

function unknownTile(name, tag = "div", attrs = {}) {
  return h(tag, { class: "tile", ...attrs, ...(tag === "div" ? { role: "group", "aria-label": name } : {}) }, [
    h("span", { class: "tile-head" }, [h("span", { class: "tile-name" }, [name])]),
  ]);
}

export function wonderTile(name, opts = {}) {
  const info = wonderInfo("duel", name);
  return info ? tileWithText(info, opts) : unknownTile(name, opts.tag, opts.attrs);
}

export function tokenTile(name, opts = {}) {
  const info = tokenInfo(name);
  return info ? tileWithText(info, opts) : unknownTile(name, opts.tag, opts.attrs);
}

// Soft hyphens where a long word of a card name may break (English-like syllables: before a lone
// consonant between vowels, inside a pair, before the onset of a longer run), so the narrow cards of
// the structure on a phone wrap "Phar-ma-cist", never "Pharmaci st".
const ONSETS = new Set(["bl", "br", "ch", "cl", "cr", "dr", "fl", "fr", "gl", "gr", "ph", "pl", "pr", "sc", "sh", "sk", "sl",
  "sm", "sn", "sp", "st", "sw", "th", "tr", "tw", "wh", "wr"]);
const DIGRAPHS = new Set(["ch", "ck", "ph", "sh", "th", "wh"]);

function softHyphens(name) {
  return name.split(" ").map((word) => {
    const compound = /^(.{3,})(house|owners|yard|shop|lenders|blower|smith)$/i.exec(word);
    if (compound) return `${softHyphens(compound[1])}\u00AD${compound[2]}`;
    if (word.length < 7) return word;
    const vowel = (i) => /[aeiou]/i.test(word[i]);
    const breaks = [];
    let i = 0;
    while (i < word.length && !vowel(i)) i++;
    while (i < word.length) {
      let j = i;
      while (j < word.length && vowel(j)) j++;
      let k = j;
      while (k < word.length && !vowel(k)) k++;
      if (k >= word.length) break; // the consonants that end the word stay with it
      const run = word.slice(j, k).toLowerCase();
      let at;
      if (run.length === 1) at = j;
      else if (run.length === 2) at = DIGRAPHS.has(run) ? j : j + 1;
      else at = ONSETS.has(run.slice(-2)) ? k - 2 : k - 1;
      if (at >= 3 && word.length - at >= 3 && (!breaks.length || at - breaks[breaks.length - 1] >= 2)) breaks.push(at);
      i = k;
    }
    let out = "";
    let from = 0;
    for (const at of breaks) {
      out += `${word.slice(from, at)}\u00AD`;
      from = at;
    }
    return out + word.slice(from);
  }).join(" ");
}

export function hyphenate(tile) {
  const name = tile.querySelector(".card-name");
  if (name) name.textContent = softHyphens(name.textContent);
  return tile;
}
