// Cards as the pages draw them: the rank and an SVG suit (drawn here, no font
// or image needed: offline), red suits red, the specials named; a spoken name
// for screen readers; and el(), the pages' one helper to make an element.
"use strict";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SPECIALS = { JOKER20: ["★", "20"], JOKER15: ["★", "15"], JOKER11: ["★", "11"], JOKER: ["★", "Joker"], BROOM: ["⌇", "Broom"] };
// the words of a card in the page's language (i18n.js): the letters and the
// specials as cardcore/i18n.py writes them (the terminal and the page agree)
function suitWord(s) {
  return { C: _p("suit, in a card's name", "clubs"), D: _p("suit, in a card's name", "diamonds"),
    H: _p("suit, in a card's name", "hearts"), S: _p("suit, in a card's name", "spades") }[s];
}
function rankWord(r) {
  return { A: _p("rank, in a card's name", "ace"), K: _p("rank, in a card's name", "king"),
    Q: _p("rank, in a card's name", "queen"), J: _p("rank, in a card's name", "jack") }[r] || r;
}
function rankLetter(r) {
  return { A: _p("rank letter", "A"), K: _p("rank letter", "K"), Q: _p("rank letter", "Q"), J: _p("rank letter", "J") }[r] || r;
}
// the specials as the terminal shows them too (cardcore.cards.SPECIAL_SYMBOLS): one notation,
// the msgids of their names in a language (context "special card", as cardcore/i18n.py's)
const SPECIAL_LABELS = { JOKER20: "★20", JOKER15: "★15", JOKER11: "★11", JOKER: "★Joker", BROOM: "⌇Broom" };
function specialLabel(name) {
  return { JOKER20: _p("special card", "★20"), JOKER15: _p("special card", "★15"), JOKER11: _p("special card", "★11"),
    JOKER: _p("special card", "★Joker"), BROOM: _p("special card", "⌇Broom") }[name];
}
function specialWord(name) {
  return { JOKER20: _("joker worth 20"), JOKER15: _("joker worth 15"), JOKER11: _("joker worth 11"),
    JOKER: _("joker"), BROOM: _("the broom") }[name];
}
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
  if (m) return rankLetter(m[1]) + SUITS[m[2]];
  return specialLabel(name) || SPECIAL_LABELS[name] || name;
}

// the card as a screen reader says it: "7 of hearts", "queen of spades", "joker worth 20"
function cardSpoken(name) {
  const m = CARD_RE.exec(name);
  // i18n: a card's spoken name: "7 of hearts", "queen of spades" (rank and suit: the words above)
  if (m) return _("{rank} of {suit}", { rank: rankWord(m[1]), suit: suitWord(m[2]) });
  return specialWord(name) || name;
}

// a text of the server (a plain string or a Text's data, cardcore.i18n.to_data)
// with its cards spoken (a move's label for screen readers)
function spokenText(text, names, sides, opts) {
  return I18N.spoken(text, names, sides, opts);
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
    idx.append(el("b", "", rankLetter(m[1])), pip(m[2]));
    e.append(idx, pip(m[2]));
  } else if (name in SPECIALS) {
    const s = SPECIALS[name];
    e.classList.add("special");
    const idx = el("span", "idx");
    idx.append(el("b", "", (specialLabel(name) || s[1]).replace(/^[★⌇]/, "")));
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
  e.setAttribute("aria-label", label || _("a card face down"));
  return e;
}

// A text (a move, an event: a plain string or a Text's data) in the page's
// language, its cards drawn as small coloured cards.
function richText(text, names, sides, opts) {
  const out = el("span", "rich");
  for (const piece of I18N.pieces(text, names, sides, opts)) {
    if (typeof piece === "string") { out.append(document.createTextNode(piece)); continue; }
    const name = piece.card;
    const c = el("span", "cardtxt");
    c.dataset.card = name;
    const seen = el("span", "", cardLabel(name));
    seen.setAttribute("aria-hidden", "true"); // "7♥" shown, "7 of hearts" said
    c.append(seen, el("span", "sr", cardSpoken(name)));
    if (/[DH]$/.test(name) && CARD_RE.test(name)) c.classList.add("red");
    if (!CARD_RE.test(name)) c.classList.add("special");
    out.append(c);
  }
  return out;
}

function isCardName(v) {
  return typeof v === "string" && (CARD_RE.test(v) || v in SPECIALS);
}
