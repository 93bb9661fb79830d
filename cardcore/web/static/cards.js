// Cards as the pages draw them: rank and suit symbol, red suits red, specials named;
// and el(), the pages' one helper to make an element.
"use strict";
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SPECIALS = { JOKER20: ["★", "20"], JOKER15: ["★", "15"], JOKER11: ["★", "11"], JOKER: ["★", "Joker"], BROOM: ["⌇", "Broom"] };
const CARD_RE = /^(10|[2-9AJQK])([CDHS])$/;
const IN_TEXT = /\b(?:(10|[2-9AJQK])([CDHS])|(JOKER(?:20|15|11)?|BROOM))\b/g;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function cardLabel(name) {
  const m = CARD_RE.exec(name);
  if (m) return m[1] + SUITS[m[2]];
  const s = SPECIALS[name];
  return s ? s.join(" ") : name;
}

// One card: <span class="card red" data-card="7H"><b>7</b><i>♥</i></span>
function cardEl(name) {
  const e = el("span", "card");
  e.dataset.card = name;
  e.title = name;
  const m = CARD_RE.exec(name);
  if (m) {
    if (m[2] === "D" || m[2] === "H") e.classList.add("red");
    e.append(el("b", "", m[1]), el("i", "", SUITS[m[2]]));
  } else {
    const s = SPECIALS[name] || ["?", name];
    e.classList.add("special");
    e.append(el("b", "", s[1]), el("i", "", s[0]));
  }
  return e;
}

// A text (a move, an event) with its card names drawn as small coloured cards.
function richText(text) {
  const out = el("span", "rich");
  let last = 0;
  for (const m of text.matchAll(IN_TEXT)) {
    if (m.index > last) out.append(document.createTextNode(text.slice(last, m.index)));
    const name = m[0];
    const c = el("span", "cardtxt", cardLabel(name));
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
