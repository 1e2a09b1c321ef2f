// The project's own card art: one colour and one symbol per dish, so that a player who cannot
// tell the colours apart still tells the cards apart by shape and by the name printed on them.
// Colours are the Okabe–Ito palette, chosen for colour-vision deficiencies.

export const DISHES = ["bread", "cheese", "ham", "chicken", "fruit", "cake", "wine"];

export const COLOURS = {
  bread: "#E69F00",
  cheese: "#F0E442",
  ham: "#CC79A7",
  chicken: "#D55E00",
  fruit: "#009E73",
  cake: "#56B4E9",
  wine: "#0072B2",
  dragon: "#6B4C9A",
};

// Symbols drawn in a 40×40 box, dark ink on the card colour.
const SYMBOLS = {
  // a loaf with three cuts
  bread: '<path d="M6 26c0-9 6-14 14-14s14 5 14 14v4H6z" fill="#fff8e6" stroke="#3b2a10" stroke-width="2"/>' +
    '<path d="M14 16l-3 7M21 14l-3 8M28 16l-3 7" stroke="#3b2a10" stroke-width="2" fill="none"/>',
  // a wedge with holes
  cheese: '<path d="M5 30L33 12v18z" fill="#fffbe0" stroke="#3b3510" stroke-width="2"/>' +
    '<circle cx="25" cy="24" r="2.5" fill="#3b3510"/><circle cx="18" cy="27" r="1.6" fill="#3b3510"/>',
  // a ham with its bone
  ham: '<ellipse cx="17" cy="22" rx="11" ry="8" fill="#fde8f2" stroke="#4a1f36" stroke-width="2"/>' +
    '<path d="M27 20h7M33 17v6" stroke="#4a1f36" stroke-width="2.5" fill="none"/>',
  // a drumstick
  chicken: '<circle cx="15" cy="16" r="9" fill="#ffe9dc" stroke="#4a1d05" stroke-width="2"/>' +
    '<path d="M21 22l9 9" stroke="#4a1d05" stroke-width="3" fill="none"/>' +
    '<circle cx="32" cy="31" r="2.5" fill="#4a1d05"/><circle cx="29" cy="34" r="2.5" fill="#4a1d05"/>',
  // an apple with a leaf
  fruit: '<circle cx="20" cy="23" r="10" fill="#e2fff4" stroke="#063b2b" stroke-width="2"/>' +
    '<path d="M20 13v-5M20 10c3-4 8-3 8-3-1 4-5 5-8 3" stroke="#063b2b" stroke-width="2" fill="none"/>',
  // a layered cake with a candle
  cake: '<rect x="7" y="20" width="26" height="12" rx="2" fill="#eef8ff" stroke="#0b3550" stroke-width="2"/>' +
    '<path d="M7 26h26" stroke="#0b3550" stroke-width="2"/><path d="M20 20v-8" stroke="#0b3550" stroke-width="2.5"/>' +
    '<path d="M20 7c2 2 2 3 0 4-2-1-2-2 0-4z" fill="#0b3550"/>',
  // a wine glass
  wine: '<path d="M12 7h16c0 9-3 14-8 14s-8-5-8-14z" fill="#e3f0fb" stroke="#e3f0fb" stroke-width="2"/>' +
    '<path d="M20 21v9M14 33h12" stroke="#e3f0fb" stroke-width="2.5" fill="none"/>',
  // a small dragon head with a wing
  dragon: '<path d="M8 28c2-10 9-16 18-16l6-5-1 8c3 3 3 8 0 11H20l-4 4z" fill="#efe6ff" stroke="#efe6ff" stroke-width="1.5"/>' +
    '<circle cx="26" cy="18" r="1.8" fill="#6B4C9A"/>',
};

// Dark text on light colours, light text on dark ones (contrast for readability).
const DARK_TEXT = new Set(["bread", "cheese", "ham", "chicken", "fruit", "cake"]);

export function symbolSvg(kind, size = 40) {
  return `<svg class="symbol" width="${size}" height="${size}" viewBox="0 0 40 40" aria-hidden="true" focusable="false">${SYMBOLS[kind]}</svg>`;
}

// The ink on each card colour, for the name printed on it: black on the light ones (the
// Chicken's orange needs pure black to reach 4.5:1), white on the dark ones.
export function inkOf(kind) {
  return DARK_TEXT.has(kind) ? "#000000" : "#ffffff";
}

// A card face: colour, symbol and the (translated) name; `count` drawn as a badge. The colours
// come from the stylesheet (class card-<kind>), so the page needs no inline style and its
// Content-Security-Policy can forbid them.
// Where a dish's name may break on a narrow card, as a reader of its language would break
// it: between syllables, with a hyphen. Chromium's automatic hyphenation needs a dictionary
// that not every system has, and without one a long name was cut anywhere ("Chicke|n",
// "Sárkán|y"); soft hyphens at the syllables (U+00AD, drawn only where the line breaks) work
// everywhere. Keyed by the translated word, so a changed translation just breaks unaided.
const SYLLABLES = new Map([
  // en
  ["chicken", "chick-en"], ["dragon", "drag-on"],
  // de
  ["Schinken", "Schin-ken"], ["Hähnchen", "Hähn-chen"], ["Kuchen", "Ku-chen"], ["Drache", "Dra-che"],
  // hu
  ["kenyér", "ke-nyér"], ["csirke", "csir-ke"], ["sonka", "son-ka"], ["gyümölcs", "gyü-mölcs"],
  ["torta", "tor-ta"], ["sárkány", "sár-kány"],
  // fr
  ["fromage", "fro-mage"], ["jambon", "jam-bon"], ["poulet", "pou-let"], ["gâteau", "gâ-teau"],
  // vi: one syllable a word, the spaces already break
].map(([word, split]) => [word, split.replaceAll("-", "\u00ad")]));

export function syllables(label) {
  return SYLLABLES.get(label) ?? label;
}

export function cardHtml(kind, label, count = null, extraClass = "") {
  const badge = count === null ? "" : ` <span class="badge">${count}</span>`;
  return `<span class="card card-${kind} ${extraClass}">` +
    `${symbolSvg(kind)}<span class="card-name">${syllables(label)}</span>${badge}</span>`;
}
