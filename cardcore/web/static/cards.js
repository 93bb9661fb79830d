// Cards as the pages draw them: the rank and an SVG suit (drawn here, no font
// or image needed: offline), red suits red, the specials named; a spoken name
// for screen readers; and el(), the pages' one helper to make an element.
"use strict";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_WORDS = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_WORDS = { A: "ace", K: "king", Q: "queen", J: "jack" };
const SPECIALS = { JOKER20: ["★", "20"], JOKER15: ["★", "15"], JOKER11: ["★", "11"], JOKER: ["★", "Joker"], BROOM: ["⌇", "Broom"] };
const SPECIAL_WORDS = { JOKER20: "joker worth 20", JOKER15: "joker worth 15", JOKER11: "joker worth 11", JOKER: "joker", BROOM: "the broom" };
const CARD_RE = /^(10|[2-9AJQK])([CDHS])$/;
const IN_TEXT = /\b(?:(10|[2-9AJQK])([CDHS])|(JOKER(?:20|15|11)?|BROOM))\b/g;
const SVG = "http://www.w3.org/2000/svg";
// each suit on a 100×100 box (a space after each path command, so that no number reads as a ruling id)
const PIPS = {
  D: [["path", { d: "M 50 4 L 92 50 L 50 96 L 8 50 Z" }]],
  H: [["path", { d: "M 50 92 C 18 68 4 50 6 32 C 8 14 26 6 38 12 C 45 15 49 22 50 27 C 51 22 55 15 62 12 C 74 6 92 14 94 32 C 96 50 82 68 50 92 Z" }]],
  S: [["path", { d: "M 50 6 C 80 32 96 46 94 64 C 92 80 72 84 56 72 L 62 94 L 38 94 L 44 72 C 28 84 8 80 6 64 C 4 46 20 32 50 6 Z" }]],
  C: [["circle", { cx: 50, cy: 28, r: 19 }], ["circle", { cx: 27, cy: 58, r: 19 }], ["circle", { cx: 73, cy: 58, r: 19 }],
    ["path", { d: "M 46 50 L 54 50 L 62 94 L 38 94 Z" }]],
  star: [["path", { d: "M 50 4 L 62 38 L 97 38 L 69 59 L 79 94 L 50 73 L 21 94 L 31 59 L 3 38 L 38 38 Z" }]],
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function pip(kind) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("class", "pip");
  svg.setAttribute("aria-hidden", "true");
  for (const [tag, attrs] of PIPS[kind]) {
    const shape = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) shape.setAttribute(k, String(v));
    shape.setAttribute("fill", "currentColor");
    svg.append(shape);
  }
  return svg;
}

function cardLabel(name) {
  const m = CARD_RE.exec(name);
  if (m) return m[1] + SUITS[m[2]];
  const s = SPECIALS[name];
  return s ? s.join(" ") : name;
}

// the card as a screen reader says it: "7 of hearts", "queen of spades", "joker worth 20"
function cardSpoken(name) {
  const m = CARD_RE.exec(name);
  if (m) return (RANK_WORDS[m[1]] || m[1]) + " of " + SUIT_WORDS[m[2]];
  return SPECIAL_WORDS[name] || name;
}

// a text with its card names spoken (a move's label for screen readers)
function spokenText(text) {
  return text.replace(IN_TEXT, (name) => cardSpoken(name));
}

// One card: <span class="card red" data-card="7H" aria-label="7 of hearts">
//   <span class="idx"><b>7</b><svg class="pip"></span><svg class="pip"></span>
// (the corner index shows when cards overlap: a fanned hand, a meld)
function cardEl(name) {
  const e = el("span", "card");
  e.dataset.card = name;
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", cardSpoken(name));
  const m = CARD_RE.exec(name);
  if (m) {
    if (m[2] === "D" || m[2] === "H") e.classList.add("red");
    const idx = el("span", "idx");
    idx.append(el("b", "", m[1]), pip(m[2]));
    e.append(idx, pip(m[2]));
  } else if (name in SPECIALS) {
    const s = SPECIALS[name];
    e.classList.add("special");
    const idx = el("span", "idx");
    idx.append(el("b", "", s[1]));
    e.append(idx);
    if (s[0] === "★") e.append(pip("star"));
    else e.append(el("i", "", s[0]));
  } else {
    e.classList.add("special");
    e.append(el("b", "", name), el("i", "", "?"));
  }
  return e;
}

// A card face down (the stock, another's hand).
function backEl(label) {
  const e = el("span", "card facedown");
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", label || "a card face down");
  return e;
}

// A text (a move, an event) with its card names drawn as small coloured cards.
function richText(text) {
  const out = el("span", "rich");
  let last = 0;
  for (const m of text.matchAll(IN_TEXT)) {
    if (m.index > last) out.append(document.createTextNode(text.slice(last, m.index)));
    const name = m[0];
    const c = el("span", "cardtxt");
    c.dataset.card = name;
    const seen = el("span", "", cardLabel(name));
    seen.setAttribute("aria-hidden", "true"); // "7♥" shown, "7 of hearts" said
    c.append(seen, el("span", "sr", cardSpoken(name)));
    if (m[2] === "D" || m[2] === "H") c.classList.add("red");
    if (m[3]) c.classList.add("special");
    out.append(c);
    last = m.index + name.length;
  }
  if (last < text.length) out.append(document.createTextNode(text.slice(last)));
  return out;
}

function isCardName(v) {
  return typeof v === "string" && (CARD_RE.test(v) || v in SPECIALS);
}
