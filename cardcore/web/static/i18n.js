// The pages' languages: the catalog of the page's language (GET /i18n/LANG.json,
// made from the same gettext catalogs as the terminal's), the functions that mark
// a text (_, _n, _p: Babel's JavaScript extractor reads them), the elements of a
// page's HTML marked data-i18n (their text), data-i18n-aria-label, data-i18n-title,
// data-i18n-placeholder (those attributes), a language picker, and say(): a text
// the server sends as data (cardcore.i18n.to_data) said in this page's language.
// The language: the picker's choice (localStorage), else the one the browser's
// Accept-Language prefers among the server's (/i18n/auto.json), else English.
"use strict";
const I18N = (() => {
  const KEY = "cardcore-lang";
  const state = { lang: "en", catalog: { domains: {}, languages: { en: "English" } } };
  let resolveReady;
  const ready = new Promise((r) => { resolveReady = r; });

  function remembered() { try { return localStorage.getItem(KEY); } catch (e) { return null; } }
  function remember(code) { try { localStorage.setItem(KEY, code); } catch (e) { /* private mode */ } }

  async function fetchCatalog(code) {
    const r = await fetch("/i18n/" + encodeURIComponent(code) + ".json");
    if (!r.ok) throw new Error("no catalog " + code);
    return r.json();
  }

  async function load(code) {
    let data = null;
    try { data = await fetchCatalog(code || "auto"); } catch (e) {
      try { data = await fetchCatalog("auto"); } catch (e2) { data = null; }
    }
    if (data) { state.catalog = data; state.lang = data.lang; }
    document.documentElement.lang = state.lang;
    translateDom(document);
    picker();
    resolveReady(state.lang);
  }

  async function set(code) {
    remember(code);
    await load(code);
    document.dispatchEvent(new CustomEvent("cardcore-lang", { detail: state.lang }));
  }

  function domain(d) { return (state.catalog.domains || {})[d || "cardcore"]; }
  function pluralIndex(d, n) {
    const table = d && d.plural;
    n = Math.abs(Math.trunc(Number(n) || 0));
    if (!table) return n === 1 ? 0 : 1;
    return n < table.length ? table[n] : table[100 + (n % 100)];
  }
  // the pattern of a message in this language (English: the msgid, or the plural)
  function pattern(d, context, msgid, plural, n) {
    const dom = domain(d);
    const key = context ? context + "\u0004" + msgid : msgid;
    const found = dom && dom.messages ? dom.messages[key] : undefined;
    if (plural === undefined || plural === null) return typeof found === "string" && found ? found : msgid;
    if (Array.isArray(found) && found.length) {
      const form = found[pluralIndex(dom, n)];
      if (form) return form;
    }
    return Number(n) === 1 ? msgid : plural;
  }

  // str.format's fields: {name}, {name:.1f}; {{ and }} are braces
  const FIELD = /\{\{|\}\}|\{(\w+)(?::([^{}]*))?\}/g;
  function formatNumber(v, spec) {
    if (typeof v !== "number" || !spec) return String(v);
    const fixed = /^\.(\d+)f$/.exec(spec);
    if (fixed) return v.toFixed(Number(fixed[1]));
    return String(v);
  }
  // a pattern filled: a list of pieces (strings, and {card} objects) by argSegs
  function fill(text, args, ctx) {
    const out = [];
    let last = 0;
    for (const m of text.matchAll(FIELD)) {
      out.push(text.slice(last, m.index));
      last = m.index + m[0].length;
      if (m[0] === "{{") { out.push("{"); continue; }
      if (m[0] === "}}") { out.push("}"); continue; }
      if (!args || !(m[1] in args)) { out.push(m[0]); continue; }
      out.push(...argSegs(args[m[1]], m[2], ctx));
    }
    out.push(text.slice(last));
    return out;
  }

  const CARDS_IN_TEXT = /\b(?:(?:10|[2-9AJQK])[CDHS]|JOKER(?:20|15|11)?|BROOM)\b/g;
  function cardsIn(text) {
    const out = [];
    let last = 0;
    for (const m of text.matchAll(CARDS_IN_TEXT)) {
      out.push(text.slice(last, m.index), { card: m[0] });
      last = m.index + m[0].length;
    }
    out.push(text.slice(last));
    return out;
  }

  function sideName(n, ctx) {
    const side = ctx.sides && ctx.sides[n];
    if (ctx.names && side) return side.map((s) => ctx.names[s] ?? String(s)).join(" & ");
    return fill(pattern("cardcore", null, "side {n}"), { n: n }, ctx).join("");
  }

  function isCard(v) { return v && typeof v === "object" && typeof v.card === "string"; }
  function argSegs(v, spec, ctx) {
    if (v === null || v === undefined) return [""];
    if (typeof v === "number") return [formatNumber(v, spec)];
    if (typeof v === "string") return cardsIn(v);
    if (Array.isArray(v)) {
      const sep = v.length && v.every(isCard) ? " " : ", ";
      const out = [];
      v.forEach((x, i) => { if (i) out.push(sep); out.push(...argSegs(x, "", ctx)); });
      return out;
    }
    if (isCard(v)) return [{ card: v.card }];
    if (typeof v.side === "number") return [sideName(v.side, ctx)];
    // a number with decimals ("2.9"): with the language's decimal sign ("2,9")
    if (typeof v.decimal === "string") return [v.decimal.replace(".", pattern("cardcore", "decimal sign", "."))];
    if (typeof v.t === "string") return segs(v, ctx);
    return [String(v)];
  }

  // an English text not yet a Text (a plain string): "side 1's" said by names, as before
  function sideWords(text, ctx) {
    return text.replace(/\bside (\d+)'s\b/g, (all, n) => {
      const side = ctx.sides && ctx.sides[Number(n)];
      return side && ctx.names ? sideName(Number(n), ctx) + "'s" : all;
    });
  }

  // a text of the server (a plain string, or a Text's data) as pieces: strings and cards
  function segs(data, ctx) {
    if (data === null || data === undefined) return [];
    if (typeof data === "string") return cardsIn(sideWords(data, ctx));
    if (typeof data !== "object" || typeof data.t !== "string") return argSegs(data, "", ctx);
    return fill(pattern(data.d, data.c, data.t, data.p, data.n), data.a, ctx);
  }

  // ruling ids are the rules pages', not the game's: " (C8b)" and ", N13a)" dropped
  const RULING = / \((?:[A-Z]\d+[a-z]?)(?:, [A-Z]\d+[a-z]?)*\)/g;
  const RULING_TAIL = /(?:, [A-Z]\d+[a-z]?)+(?=\))/g;
  function plain(text) { return text.replace(RULING, "").replace(RULING_TAIL, ""); }

  // the pieces merged (strings together), ruling ids out when opts.plain
  function pieces(data, names, sides, opts) {
    const ctx = { names: names, sides: sides };
    const out = [];
    for (const p of segs(data, ctx)) {
      if (typeof p === "string") {
        if (typeof out[out.length - 1] === "string") out[out.length - 1] += p; else out.push(p);
      } else out.push(p);
    }
    return out.map((p) => (typeof p === "string" && opts && opts.plain ? plain(p) : p)).filter((p) => p !== "");
  }

  function label(name) { return typeof cardLabel === "function" ? cardLabel(name) : name; }
  function spoken(name) { return typeof cardSpoken === "function" ? cardSpoken(name) : name; }

  return {
    ready, set, load, pattern, fill, pieces, plain,
    get lang() { return state.lang; },
    get languages() { return state.catalog.languages || { en: "English" }; },
    // a text of the server in this page's language, its cards as the page writes them (K♥, R♥)
    say(data, names, sides, opts) {
      return pieces(data, names, sides, opts).map((p) => (typeof p === "string" ? p : label(p.card))).join("");
    },
    // the same, its cards as a screen reader says them ("king of hearts")
    spoken(data, names, sides, opts) {
      return pieces(data, names, sides, opts).map((p) => (typeof p === "string" ? p : spoken(p.card))).join("");
    },
    text(msgid, args, d) { return fill(pattern(d, null, msgid), args, {}).map((p) => (typeof p === "string" ? p : label(p.card))).join(""); },
    ntext(s, p, n, args, d) { return fill(pattern(d, null, s, p, n), Object.assign({ n: n }, args || {}), {}).map((x) => (typeof x === "string" ? x : label(x.card))).join(""); },
    ptext(c, msgid, args, d) { return fill(pattern(d, c, msgid), args, {}).map((p) => (typeof p === "string" ? p : label(p.card))).join(""); },
  };

  // the HTML's own words: data-i18n (the text), data-i18n-ATTR (that attribute)
  function translateDom(root) {
    root.querySelectorAll("[data-i18n]").forEach((e) => { e.textContent = I18N.text(e.dataset.i18n); });
    for (const attr of ["aria-label", "title", "placeholder", "alt"]) {
      root.querySelectorAll("[data-i18n-" + attr + "]").forEach((e) => {
        e.setAttribute(attr, I18N.text(e.getAttribute("data-i18n-" + attr)));
      });
    }
    const t = document.querySelector("title[data-i18n]");
    if (t) document.title = t.textContent;
  }

  // the picker: in the element marked data-i18n-picker (a header), the server's languages
  function picker() {
    const spot = document.querySelector("[data-i18n-picker]");
    if (!spot) return;
    let sel = document.getElementById("lang");
    if (!sel) {
      sel = document.createElement("select");
      sel.id = "lang";
      sel.className = "lang";
      sel.onchange = () => { set(sel.value); };
      spot.append(sel);
    }
    sel.setAttribute("aria-label", _("Language"));
    sel.title = _("Language");
    sel.replaceChildren();
    for (const [code, name] of Object.entries(I18N.languages)) {
      const o = document.createElement("option");
      o.value = code;
      o.textContent = name;
      o.lang = code;
      if (code === state.lang) o.selected = true;
      sel.append(o);
    }
  }
})();

// the marking functions (Babel's JavaScript extractor reads their first arguments):
// _("Your move"), _("Seat {n}", {n: 2}), _n("{n} card", "{n} cards", n), _p("rank letter", "K")
function _(msgid, args) { return I18N.text(msgid, args); }
function _n(singular, plural, n, args) { return I18N.ntext(singular, plural, n, args); }
function _p(context, msgid, args) { return I18N.ptext(context, msgid, args); }
function say(data, names, sides, opts) { return I18N.say(data, names, sides, opts); }

I18N.load((() => { try { return localStorage.getItem("cardcore-lang"); } catch (e) { return null; } })() || "auto");
