// The table page: one websocket, frames in (what this seat may see), moves out.
// The seats sit around the felt (you at the bottom, a partner opposite), the
// cards in the middle; the dock at the bottom holds your move and your hand.
"use strict";
const token = location.pathname.split("/").pop();
let frame = null;
let selected = null; // the hand card picked: its moves are shown
let ws = null;
let retries = 0;
let closedForGood = false;
let sent = false; // a move is on its way: no second click
let asked = null; // the decision a hint was asked for
let whyAsked = null; // [decision, card] of the last "why not?"
let sortMode = localStorage.getItem("cardcore.sort") || "game";
let custom = null; // the hand in the order the person dragged it to (card names)
let mark = 0; // history lines already seen when you last moved: the others' moves since are shown
let markDeal = null;
let board = { seq: null, counts: {} }; // the cards on the felt at the last view: what is new is highlighted
let movesSent = 0; // moves this page sent (read by the browser tests)
let usingKeys = false; // the person plays with the keyboard: the focus follows the decisions
const RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUIT_ORDER = ["C", "D", "H", "S"];

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/ws/" + token + "?changes=1");
  ws.onopen = () => { retries = 0; setConn(_("connected"), "ok"); };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.type === "error") {
      showError(m.say !== undefined && m.say !== null ? sayText(m.say) : m.error);
      if (m.fatal) closedForGood = true;
      sent = false;
      if (frame) render();
      return;
    }
    if (m.type === "state" || m.type === "change") {
      const whole = nextFrame(frame, m); // frames.js
      if (!whole) {
        if (!ws.resyncing) send({ type: "resync" }); // a change we cannot build on: a whole frame
        ws.resyncing = true;
        return;
      }
      ws.resyncing = false;
      m = whole;
      if (!frame || m.decision !== frame.decision) selected = null;
      frame = m;
      sent = false;
      hideError();
      render();
    }
  };
  ws.onclose = (ev) => {
    if (closedForGood || ev.code === 4404 || ev.code === 4001) { setConn(_("closed"), "bad"); return; }
    setConn(_("reconnecting…"), "bad");
    setTimeout(connect, Math.min(5000, 300 * 2 ** retries++));
  };
}

function setConn(text, cls) {
  const c = document.getElementById("conn");
  c.removeAttribute("data-i18n"); // said here from now on: a new language must not put "connecting…" back
  c.textContent = text;
  c.className = "conn " + cls;
}
// the connection's state said again in a new language
function sayConn() {
  if (!ws) return;
  if (ws.readyState === WebSocket.OPEN) setConn(_("connected"), "ok");
  else if (closedForGood) setConn(_("closed"), "bad");
  else if (retries) setConn(_("reconnecting…"), "bad");
}
function showError(text) {
  const e = document.getElementById("error");
  e.textContent = text;
  e.hidden = false;
}
function hideError() { document.getElementById("error").hidden = true; }

// the players' names in this page's language: a name the table gave by default
// ("Player 2", "Normal 3") comes as data too (table.name_says) and is said here
function shownNames() {
  const t = frame ? frame.table : null;
  if (!t) return [];
  return t.name_says ? t.name_says.map((d, i) => (typeof d === "string" ? d : say(d, t.names, t.sides)) || t.names[i]) : t.names;
}
function name(seat) { return shownNames()[seat] ?? _("seat {n}", { n: seat }); }
function sideName(seats) { return seats.map(name).join(" & "); }
function mySide() {
  const me = frame.you === null ? 0 : frame.you;
  const i = frame.table.sides.findIndex((s) => s.includes(me));
  return i < 0 ? 0 : i;
}
// a text the server sends (a Text's data, cardcore.i18n.to_data, or a plain string)
// in this page's language, its sides said by the players' names ("Bob's pile");
// opts.plain: without ruling ids (the rules pages' own)
function sayText(data, opts) { return frame ? say(data, shownNames(), frame.table.sides, opts) : say(data, [], [], opts); }
function sayRich(data, opts) { return richText(data, shownNames(), frame ? frame.table.sides : [], opts); }
function saySpoken(data, opts) { return spokenText(data, shownNames(), frame ? frame.table.sides : [], opts); }
// a field of the frame said in this language: its data (field_say, "say") when the server sent one
function said(data, english) { return data !== undefined && data !== null ? data : english; }
function cardCount(n) { return _n("{n} card", "{n} cards", n); }
// a word of the game's data (a view's item, a score's item) in the game's catalog, else the core's
function dataWord(context, key) {
  const label = String(key).replace(/_/g, " ");
  const d = frame && frame.table.domain;
  let word = d ? I18N.pattern(d, context, label) : label;
  if (word === label) word = I18N.pattern("cardcore", context, label);
  return word;
}
function gameTitle(t) { return sayText(said(t.title_say, t.title)); }

function render() {
  const f = frame, t = f.table, st = f.status, view = f.view || {};
  const focus = focusKey();
  document.title = _("{title} · {name}", { title: gameTitle(t), name: sayText(said(t.name_say, t.name)) });
  document.getElementById("title").textContent = gameTitle(t);
  document.getElementById("deal").textContent =
    st.match > 1 && st.deal ? _("match {match} · deal {deal}", st) : st.deal ? _("deal {deal}", st) : st.match > 1 ? _("match {match}", st) : "";
  renderScoreline(f);
  renderSeats(f, view);
  renderBoard(f, view);
  renderLastMoves(f);
  renderHistory(f.history);
  renderSheet(f);
  renderRules(f);
  renderResult(f);
  renderPrompt(f, view);
  renderHand(f, view);
  if (typeof renderAway === "function") renderAway(f);
  if (typeof renderWaiting === "function") renderWaiting(f); // waiting.js: whom the table waits for, Start
  renderShare(f);
  fitDock();
  keepInView(f);
  restoreFocus(focus, f);
}

function renderScoreline(f) {
  const box = document.getElementById("scoreline");
  box.replaceChildren();
  f.table.sides.forEach((seats, i) => {
    const s = el("span", "score");
    s.append(el("span", "", sideName(seats) + " "), el("strong", "", String(f.status.scores[i] ?? 0)));
    box.append(s);
  });
}

// People away: whose seat a bot plays, and for whoever is here a button to
// hand a seat away past the table's limit to a bot (his link takes it back).
function renderAway(f) {
  const box = document.getElementById("away");
  if (!box) return;
  box.replaceChildren();
  f.seats.forEach((s, i) => {
    if (!s.person || i === f.you) return;
    if (s.covered) {
      box.append(el("p", "away-note", _("A bot plays for {name} until {name} comes back.", { name: name(i) })));
    } else if (s.coverable && f.you !== null && !["stopped", "error"].includes(f.status.phase)) {
      const b = el("button", "back cover", _("Let a bot play for {name}", { name: name(i) }));
      b.dataset.seat = i;
      b.title = _("{name} has been away a while; opening the link again takes the seat back", { name: name(i) });
      b.onclick = () => { b.disabled = true; send({ type: "cover", seat: i }); };
      box.append(b);
    }
  });
  box.hidden = !box.childElementCount;
}

// ---- the seats around the table ------------------------------------------
function places(n, me) {
  const others = [];
  for (let k = 1; k < n; k++) others.push((me + k) % n);
  if (n === 2) return { top: others };
  if (n === 3) return { left: [others[0]], right: [others[1]] };
  if (n === 4) return { left: [others[0]], top: [others[1]], right: [others[2]] };
  const third = Math.ceil(others.length / 3);
  return { left: others.slice(0, third), top: others.slice(third, others.length - third), right: others.slice(others.length - third) };
}

function seatEl(f, view, i) {
  const s = f.seats[i];
  const chip = el("div", "seat");
  chip.dataset.seat = i;
  const playing = f.status.phase === "playing";
  if (i === view.to_act && playing) chip.classList.add("turn");
  if (s.person && !s.connected) chip.classList.add("away");
  const who = el("span", "who", i === f.you ? _("{name} (you)", { name: name(i) }) : name(i));
  chip.append(who);
  const meta = el("span", "meta");
  if (i === view.to_act && playing) meta.append(el("span", "badge turn", i === f.you ? _("your turn") : _("to play")));
  if (i === view.dealer) meta.append(el("span", "badge dealer", _("dealer")));
  if (!s.person) meta.append(el("span", "badge", _("bot")));
  else if (!s.connected) meta.append(el("span", "badge", _("away")));
  if (s.covered) meta.append(el("span", "badge", _("a bot plays for now")));
  chip.append(meta);
  if (view.hand_sizes && i !== f.you) {
    const n = view.hand_sizes[i];
    const backs = el("span", "backs");
    backs.setAttribute("aria-hidden", "true");
    for (let k = 0; k < Math.min(n, 10); k++) backs.append(el("span", "back"));
    chip.append(backs, el("small", "", cardCount(n)));
  }
  // a list said by a screen reader: the name, "you", the cards, "to play"
  const label = [name(i)];
  if (i === f.you) label.push(_("you"));
  if (view.hand_sizes) label.push(cardCount(view.hand_sizes[i]));
  if (i === view.to_act && playing) label.push(_("to play"));
  chip.setAttribute("aria-label", label.join(", "));
  return chip;
}

function renderSeats(f, view) {
  const me = f.you === null ? 0 : f.you;
  const at = places(f.seats.length, me);
  for (const where of ["top", "left", "right"]) {
    const box = document.getElementById("seat-" + where);
    box.replaceChildren();
    (at[where] || []).forEach((i) => box.append(seatEl(f, view, i)));
  }
  const you = document.getElementById("you-spot");
  you.replaceChildren(seatEl(f, view, me));
}

// ---- the middle of the table ---------------------------------------------
// Known shapes are drawn as a card table; anything else a game shows (a house
// rule's item, a new game's) falls back to the generic drawing at the end.
const CORE = new Set(["seat", "to_act", "turn", "dealer", "hand", "hand_sizes", "scores", "phase"]);
const DRAWN = new Set(["stock", "table", "pile", "piles", "captured", "last_capture", "sides", "staged", "staged_points", "initial_minimum", "asked"]);

function renderBoard(f, view) {
  const box = document.getElementById("board");
  box.replaceChildren();
  const seen = {};
  const fresh = board.seq !== null && board.seq !== f.seq;
  const mine = mySide();
  // the others' melds first (the top of the table), then yours
  if (Array.isArray(view.sides)) {
    const sides = el("div", "sides");
    const order = view.sides.map((s, i) => i).sort((a, b) => (a === mine) - (b === mine));
    order.forEach((i) => sides.append(sideEl(f, view.sides[i], i === mine)));
    box.append(sides);
  }
  // the piles each side has taken, the stock: a row of small items
  const info = el("div", "zone info");
  (view.piles || []).forEach((p) => {
    const g = el("div", "stack pile small");
    g.append(p.top ? cardEl(p.top) : el("span", "card empty", ""));
    g.append(el("small", "", _n("{side} · {n} card", "{side} · {n} cards", p.size, { side: sideName(p.seats) })));
    g.setAttribute("aria-label", _n("{side}'s pile: {n} card", "{side}'s pile: {n} cards", p.size, { side: sideName(p.seats) }));
    info.append(g);
  });
  (view.captured || []).forEach((c) => {
    const chip = el("span", "chip", _n("{side} took {n} card", "{side} took {n} cards", c.size, { side: sideName(c.seats) }));
    info.append(chip);
  });
  if (view.stock !== undefined) {
    const chip = el("span", "chip stock");
    chip.append(el("span", "back"), document.createTextNode(" " + _("stock {n}", { n: view.stock })));
    chip.setAttribute("aria-label", _n("{n} card in the stock", "{n} cards in the stock", view.stock));
    info.append(chip);
  }
  if (view.last_capture && Array.isArray(view.last_capture.seats)) {
    info.append(el("span", "chip", _("last to capture: {side}", { side: sideName(view.last_capture.seats) })));
  }
  if (info.childNodes.length) box.append(info);
  // what you decide on, just above your hand: the cards on the table, the pile
  const decide = el("div", "zone decide");
  decide.id = "decide";
  if (view.pile && typeof view.pile === "object") {
    const p = view.pile;
    const g = el("div", "stack pile drop-target");
    g.dataset.drop = "pile";
    g.append(p.top ? cardEl(p.top) : el("span", "card empty", ""));
    const bits = [cardCount(p.size)];
    const frozen = frozenText(f, view);
    if (frozen) bits.push(frozen);
    const small = el("small", frozen ? "frozen" : "", _("pile · {what}", { what: bits.join(" · ") }));
    g.append(small);
    g.setAttribute("aria-label", p.top
      ? _("the discard pile: {card} on top, {what}", { card: cardSpoken(p.top), what: bits.join(", ") })
      : _("the discard pile: {what}", { what: bits.join(", ") }));
    decide.append(g);
  }
  if (Array.isArray(view.table)) {
    const t = el("div", "zone table-cards drop-target");
    t.dataset.drop = "table";
    t.setAttribute("aria-label", _("cards on the table"));
    if (!view.table.length) t.append(el("span", "muted", _("no card on the table")));
    view.table.forEach((x) => t.append(tableItem(x)));
    decide.append(t);
  }
  if (decide.childNodes.length) box.append(decide);
  if (view.asked) box.append(el("div", "zone-label", _("asked: {what}", { what: typeof view.asked === "string" ? dataWord("view item", view.asked) : _("may I go out?") })));
  for (const [key, value] of Object.entries(view)) {
    if (CORE.has(key) || DRAWN.has(key)) continue;
    const row = el("div", "zone");
    row.append(el("span", "zone-label", _("{item}:", { item: dataWord("view item", key) })), valueEl(value, key));
    box.append(row);
  }
  // the cards new on the table since the last view shine a moment
  for (const c of box.querySelectorAll(".card[data-card]")) {
    const n = c.dataset.card;
    seen[n] = (seen[n] || 0) + 1;
    if (fresh && seen[n] > (board.counts[n] || 0)) c.classList.add("fresh");
  }
  if (board.seq !== f.seq) board = { seq: f.seq, counts: seen };
}

function frozenText(f, view) {
  if (!Array.isArray(view.sides) || !view.sides.every((s) => "frozen" in s)) return view.pile && view.pile.frozen ? _("frozen") : "";
  const mine = mySide();
  const frozen = view.sides.map((s) => s.frozen);
  if (frozen.every(Boolean)) return _("frozen for everyone");
  if (f.you === null) return frozen.some(Boolean) ? _("frozen for {sides}", { sides: view.sides.filter((s) => s.frozen).map((s) => sideName(s.seats)).join(", ") }) : "";
  if (frozen[mine]) return _("frozen for you");
  return frozen.some(Boolean) ? _("frozen for them") : "";
}

function tableItem(x) {
  if (x && typeof x === "object" && Array.isArray(x.build)) {
    const g = el("div", "group build");
    const cards = el("div", "cards");
    x.build.forEach((c) => cards.append(cardEl(c)));
    const owned = x.owner !== undefined && x.owner !== null;
    const args = { value: x.value, name: owned ? name(x.owner) : "" };
    g.append(cards, el("small", "", owned ? _("build of {value} · {name}'s", args) : _("build of {value}", args)));
    g.setAttribute("aria-label", owned ? _("a build of {value}, {name}'s", args) : _("a build of {value}", args));
    return g;
  }
  return valueEl(x);
}

// Canasta's melds: naturals first (by suit), then the wild cards
function meldOrder(cards) {
  const wild = (c) => (c === "JOKER" ? 2 : /^2[CDHS]$/.test(c) ? 1 : 0);
  return cards.slice().sort((a, b) => wild(a) - wild(b) || SUIT_ORDER.indexOf(a.slice(-1)) - SUIT_ORDER.indexOf(b.slice(-1)));
}

function meldEl(m, mine) {
  const g = el("div", "group meld" + (m.canasta ? " canasta " + m.canasta : ""));
  g.dataset.rank = m.rank;
  if (mine) { g.classList.add("drop-target"); g.dataset.drop = "meld"; }
  const fan = el("div", "fan");
  meldOrder(m.cards).forEach((c) => fan.append(cardEl(c)));
  const kinds = { natural: _("natural canasta"), mixed: _("mixed canasta") };
  const what = m.canasta ? kinds[m.canasta] || _("{kind} canasta", { kind: dataWord("view item", m.canasta) }) : cardCount(m.cards.length);
  g.append(fan, el("small", "", what));
  g.setAttribute("aria-label", _("meld of {rank}s: {what}", { rank: rankLetter(m.rank), what: what }));
  return g;
}

function sideEl(f, side, mine) {
  const box = el("div", "side" + (mine ? " mine" : ""));
  const h = el("h4", "");
  h.append(el("span", "", mine && f.you !== null ? _("{name} (you)", { name: sideName(side.seats) }) : sideName(side.seats)));
  if (typeof side.meld_points === "number") h.append(el("span", "points", _n("{n} point on the table", "{n} points on the table", side.meld_points)));
  if (Array.isArray(side.red_threes) && side.red_threes.length) {
    const reds = el("span", "cards");
    side.red_threes.forEach((c) => reds.append(cardEl(c)));
    h.append(el("span", "", _("red threes:")), reds);
  }
  box.append(h);
  const melds = el("div", "melds");
  if (mine) { melds.classList.add("drop-target"); melds.dataset.drop = "melds"; }
  if (!side.melds || !side.melds.length) melds.append(el("span", "muted", _("no meld yet")));
  (side.melds || []).forEach((m) => melds.append(meldEl(m, mine)));
  box.append(melds);
  for (const [k, x] of Object.entries(side)) {
    if (["seats", "melds", "red_threes", "meld_points", "frozen"].includes(k)) continue;
    const line = el("div", "zone");
    line.append(el("span", "zone-label", _("{item}:", { item: dataWord("view item", k) })), valueEl(x, k));
    box.append(line);
  }
  return box;
}

function valueEl(v, key) {
  if (v === null || v === undefined) return el("span", "muted", "—");
  if (isCardName(v)) return cardEl(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", "muted", _("none"));
    if (v.every((x) => x && typeof x === "object" && Array.isArray(x.seats))) {
      const sides = el("div", "sides");
      v.forEach((side) => sides.append(sideEl(frame, side, false)));
      return sides;
    }
    const row = el("div", "cards");
    v.forEach((x) => row.append(valueEl(x, key)));
    return row;
  }
  if (typeof v === "object") {
    if (Array.isArray(v.build)) return tableItem(v);
    if (Array.isArray(v.cards) && "rank" in v) return meldEl(v, false);
    if (Array.isArray(v.seats)) return el("span", "", sideName(v.seats));
    const dl = el("div", "cards");
    for (const [k, x] of Object.entries(v)) dl.append(el("span", "muted", _("{item}:", { item: dataWord("view item", k) }) + " "), valueEl(x, k));
    return dl;
  }
  if (typeof v === "boolean") return el("span", "", v ? _("yes") : _("no"));
  if (typeof v === "string") return el("span", "", dataWord("view item", v));
  return el("span", "", String(v));
}

// ---- what happened --------------------------------------------------------
function renderLastMoves(f) {
  const box = document.getElementById("last-move");
  box.replaceChildren();
  if (markDeal !== f.status.deal || mark > f.history.length) { mark = 0; markDeal = f.status.deal; }
  let lines = f.history.slice(mark).filter((l) => l.kind === "move" || l.kind === "event");
  if (f.you === null || !lines.length) lines = f.history.filter((l) => l.kind === "move" || l.kind === "event").slice(-2);
  lines = lines.slice(-4);
  lines.forEach((line, k) => {
    const p = el("p", k === lines.length - 1 ? "newest" : "");
    p.append(sayRich(said(line.say, line.text), { plain: true }));
    box.append(p);
  });
}

function renderHistory(lines) {
  const box = document.getElementById("history");
  box.replaceChildren();
  lines.slice(-60).forEach((line) => {
    const li = el("li", "h-" + line.kind);
    li.append(sayRich(said(line.say, line.text), { plain: true }));
    box.append(li);
  });
  box.scrollTop = box.scrollHeight;
}

function renderSheet(f) {
  const box = document.getElementById("sheet");
  box.replaceChildren(sheetTable(f));
}

function sheetTable(f) {
  const t = el("table", "sheet");
  const head = el("tr");
  head.append(el("th", "", _("deal")));
  f.table.sides.forEach((s) => head.append(el("th", "", sideName(s))));
  const thead = el("thead");
  thead.append(head);
  const body = el("tbody");
  (f.status.sheet || []).forEach((row) => {
    const tr = el("tr");
    tr.append(el("td", "", String(row.deal)));
    row.points.forEach((p) => tr.append(el("td", "", String(p))));
    body.append(tr);
  });
  if (!(f.status.sheet || []).length) {
    const tr = el("tr");
    const td = el("td", "muted", _("no deal finished yet"));
    td.colSpan = f.table.sides.length + 1;
    tr.append(td);
    body.append(tr);
  }
  const foot = el("tfoot");
  const tr = el("tr");
  tr.append(el("td", "", _("total")));
  f.status.scores.forEach((p) => tr.append(el("td", "", String(p))));
  foot.append(tr);
  t.append(thead, body, foot);
  return t;
}

function renderRules(f) {
  const box = document.getElementById("rules");
  box.replaceChildren();
  const t = f.table;
  const goal = sayText(said(t.goal_say, t.goal), { plain: true });
  box.append(el("p", "", _("{title}: {goal}.", { title: gameTitle(t), goal: goal })));
  const texts = t.house_rule_texts || [];
  const says = t.house_rule_says || [];
  if (texts.length) {
    box.append(el("h3", "", _("house rules")));
    const ul = el("ul");
    texts.forEach((x, i) => ul.append(el("li", "", sayText(said(says[i], x), { plain: true }).replace(/\.+$/, ""))));
    box.append(ul);
  } else {
    box.append(el("p", "muted", _("No house rule: the rules as written.")));
  }
}

function breakdownWords(breakdown) {
  const out = el("span", "");
  const parts = Object.entries(breakdown).filter(([, v]) => v);
  if (!parts.length) { out.textContent = _("nothing scored"); return out; }
  parts.forEach(([k, v], i) => {
    if (i) out.append(document.createTextNode(", "));
    // i18n: a score's item and its points: "jokers 18", "most cards 2"
    out.append(richText(_("{item} {points}", { item: dataWord("breakdown", k), points: v })));
  });
  return out;
}

function renderResult(f) {
  const box = document.getElementById("result");
  const st = f.status;
  box.replaceChildren();
  box.hidden = !(st.phase === "deal_over" || st.phase === "match_over" || st.phase === "stopped" || st.phase === "error");
  if (box.hidden) return;
  if (st.error) box.append(el("p", "error", sayText(said(st.error_say, st.error))));
  if (st.result) {
    box.append(el("h2", "", _("Deal {n}", { n: st.result.deal })));
    st.result.sides.forEach((side, i) => {
      const p = el("p", "words");
      p.append(el("strong", "", _("{side}:", { side: sideName(side.seats) }) + " "),
        el("span", "points", _n("{n} point", "{n} points", side.points)));
      p.append(document.createTextNode(" — "), breakdownWords(side.breakdown));
      p.append(document.createTextNode(" " + _("(total {n})", { n: st.result.totals[i] })));
      box.append(p);
    });
    box.append(sheetTable(f));
  }
  if (st.phase === "deal_over" && f.you !== null) {
    const ready = st.ready.includes(f.you);
    const b = el("button", "next", ready ? _("Waiting for the others…") : _("Next deal"));
    b.id = "next-deal";
    b.disabled = ready;
    b.onclick = () => { b.disabled = true; send({ type: "next" }); };
    box.append(b);
  }
  if (st.phase === "match_over" && st.winners) {
    const names = st.winners.map((w) => sideName(f.table.sides[w])).reduce((a, b) => _("{first} and {second}", { first: a, second: b }));
    const you = f.you !== null && st.winners.includes(mySide());
    box.append(el("h2", "winner", you ? _("You win the match!")
      : st.winners.length > 1 ? _("{names} share the win", { names: names })
      // i18n: one side won the match; {names}: its players' names (a side of one: "Normal 2 wins the match")
      : _n("{names} wins the match", "{names} win the match", f.table.sides[st.winners[0]].length, { names: names })));
    if (f.you !== null) {
      const b = el("button", "next", _("Play again"));
      b.id = "new-match";
      b.onclick = () => { b.disabled = true; send({ type: "new_match" }); };
      box.append(b);
    }
  }
  if (st.phase === "stopped") box.append(el("p", "", _("The table has stopped.")));
}

// ---- your move --------------------------------------------------------------
// Where suits do not matter (Canasta, N8a) a move is listed once per rank:
// it stands for any card of that rank, and the card picked is the one laid.
function sameCard(a, b) {
  if (a === b) return true;
  if (!frame || frame.table.suits_matter !== false) return false;
  const x = CARD_RE.exec(a), y = CARD_RE.exec(b);
  return !!(x && y && x[1] === y[1]);
}
function laidCards(m) { return (m.card ? [m.card] : []).concat(Array.isArray(m.cards) ? m.cards : []); }
function usesCard(m, c) { return laidCards(m).some((x) => sameCard(x, c)); }
// the card of the listed move that the picked card ``c`` takes the place of (null: none)
function replaced(m, c) {
  if (c === null || laidCards(m).includes(c)) return null;
  return laidCards(m).find((x) => sameCard(x, c)) || null;
}
function handCard(m) { return m.card || (Array.isArray(m.cards) && m.cards.length > 0); }
function movesOf(c) { return frame.moves.filter((m) => usesCard(m, c)); }
// a move's text (its data: "say", else its English "text"), the card picked in
// the place of the listed one (N8a)
function moveText(m, c) {
  const other = replaced(m, c);
  const data = said(m.say, m.text);
  return other ? withCard(data, other, c) : data;
}
// ``data`` with the first card ``from`` said as ``to`` (a plain string, or a Text's data)
function withCard(data, from, to) {
  let done = false;
  const walk = (v) => {
    if (done) return v;
    if (typeof v === "string") {
      if (!v.includes(from)) return v;
      done = true;
      return v.replace(from, to);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") {
      if (v.card === from) { done = true; return { card: to }; }
      if (v.a) return Object.assign({}, v, { a: Object.fromEntries(Object.entries(v.a).map(([k, x]) => [k, walk(x)])) });
    }
    return v;
  };
  return walk(data);
}
function manyMoves() { return window.innerWidth < 600 ? 6 : 12; }

function play(m, c) {
  if (sent || !frame || !frame.moves.includes(m)) return;
  sent = true;
  document.querySelectorAll("#moves button").forEach((x) => (x.disabled = true));
  const message = { type: "move", decision: frame.decision, index: m.index };
  const other = replaced(m, c);
  if (other) message.cards = [c]; // the picked card is laid (N8a)
  mark = frame.history.length;
  selected = null;
  movesSent += 1;
  send(message);
}

// Alone against bots: back to your previous decision of the deal (the terminal's u)
function renderTakeBack(f, box) {
  if (!f.take_back) return;
  const b = el("button", "back take-back", _("Take back"));
  b.type = "button";
  b.id = "take-back";
  b.dataset.focus = "take-back";
  b.disabled = sent;
  b.title = _("back to your previous decision (against bots only)");
  b.onclick = () => takeBack();
  b.onkeydown = (ev) => moveKeys(ev, b);
  box.append(b);
}

function takeBack() {
  if (sent || !frame || !frame.take_back) return;
  sent = true;
  selected = null;
  document.querySelectorAll("#moves button").forEach((x) => (x.disabled = true));
  send({ type: "take_back", decision: frame.decision });
}

function askWhy(c) {
  if (!frame || frame.decision === null || sent) return;
  whyAsked = [frame.decision, c];
  send({ type: "why", decision: frame.decision, card: c });
  render();
}

function statusText(f, view) {
  const st = f.status;
  if (st.phase !== "playing") return st.phase === "deal_over" ? _("The deal is over.") : st.phase === "match_over" ? _("The match is over.") : "";
  if (!f.moves.length) {
    const who = f.seats[view.to_act];
    if (f.you === null) return _("{name} to play.", { name: name(view.to_act) });
    return who && who.person && !who.connected
      ? _("Waiting for {name} (away)…", { name: name(view.to_act) }) : _("Waiting for {name}…", { name: name(view.to_act) });
  }
  let text = selected !== null ? _("Your move with {card}:", { card: cardLabel(selected) }) :
    f.moves.length > manyMoves() ? _("Your move: tap a card of your hand to see what it can do.") : _("Your move:");
  if (typeof view.initial_minimum === "number") {
    const need = { n: view.initial_minimum, laid: view.staged_points };
    text += " " + (typeof view.staged_points === "number"
      ? _("Your side's first meld needs {n} points ({laid} laid so far).", need) : _("Your side's first meld needs {n} points.", need));
  }
  return text;
}

function renderPrompt(f, view) {
  const status = document.getElementById("status");
  const box = document.getElementById("moves");
  box.replaceChildren();
  status.replaceChildren(document.createTextNode(statusText(f, view)));
  if (f.why && f.decision === f.why.decision) {
    const w = el("span", "why");
    w.id = "why-text";
    w.append(document.createTextNode(_("Why not {card}?", { card: cardLabel(f.why.card) }) + " "), sayRich(said(f.why.say, f.why.text), { plain: true }));
    if (f.why.rule) w.title = sayText(said(f.why.rule_say, f.why.rule)); // the rule's ids, as the rules pages name them
    status.append(w);
  } else if (whyAsked && whyAsked[0] === f.decision) {
    status.append(el("span", "why", _("Why not {card}?", { card: cardLabel(whyAsked[1]) }) + " …"));
  }
  if (f.status.phase !== "playing" || !f.moves.length) return;
  let shown = f.moves;
  if (selected !== null) shown = f.moves.filter((m) => usesCard(m, selected) || !handCard(m));
  else if (f.moves.length > manyMoves()) shown = f.moves.filter((m) => !handCard(m));
  shown.forEach((m) => {
    const b = el("button", "move");
    b.type = "button";
    b.dataset.index = m.index;
    b.dataset.kind = m.kind;
    b.dataset.focus = "move:" + m.index;
    const text = moveText(m, selected);
    b.append(sayRich(text)); // its cards said by name to a screen reader
    b.disabled = sent;
    b.onclick = () => play(m, selected);
    b.onkeydown = (ev) => moveKeys(ev, b);
    box.append(b);
  });
  if (selected !== null) {
    const back = el("button", "back", _("all moves"));
    back.type = "button";
    back.dataset.focus = "back";
    back.onclick = () => { selected = null; render(); };
    back.onkeydown = (ev) => moveKeys(ev, back);
    box.append(back);
  }
  const hint = el("button", "back hint", f.hint ? _("hint given") : asked === f.decision ? _("thinking…") : _("hint"));
  hint.type = "button";
  hint.id = "hint";
  hint.dataset.focus = "hint";
  hint.disabled = sent || asked === f.decision;
  hint.title = _("what I would play, seeing what you see");
  hint.onclick = () => { asked = f.decision; send({ type: "hint", decision: f.decision }); render(); };
  hint.onkeydown = (ev) => moveKeys(ev, hint);
  box.append(hint);
  renderTakeBack(f, box);
  // the menu's own buttons first: never scrolled out of sight below a long list of moves
  box.prepend(...box.querySelectorAll("button.back"));
  if (f.hint) {
    const p = el("p", "hint-text");
    p.id = "hint-text";
    p.append(sayRich(said(f.hint.say, f.hint.text)));
    box.append(p);
    const best = box.querySelector('button.move[data-index="' + f.hint.index + '"]');
    if (best) best.classList.add("hinted");
  }
}

// ---- your hand ----------------------------------------------------------------
function rankIndex(c) {
  const m = CARD_RE.exec(c);
  return m ? RANKS.indexOf(m[1]) : RANKS.length + Object.keys(SPECIALS).indexOf(c);
}
function suitIndex(c) {
  const m = CARD_RE.exec(c);
  return m ? SUIT_ORDER.indexOf(m[2]) : SUIT_ORDER.length;
}
function ordered(hand) {
  if (sortMode === "rank") return hand.slice().sort((a, b) => rankIndex(a) - rankIndex(b) || suitIndex(a) - suitIndex(b));
  if (sortMode === "suit") return hand.slice().sort((a, b) => suitIndex(a) - suitIndex(b) || rankIndex(a) - rankIndex(b));
  if (sortMode === "custom" && custom) {
    const left = hand.slice();
    const out = [];
    for (const c of custom) {
      const i = left.indexOf(c);
      if (i >= 0) { out.push(c); left.splice(i, 1); }
    }
    return out.concat(left); // the cards new in the hand at the end
  }
  return hand.slice();
}

function renderHand(f, view) {
  const box = document.getElementById("hand-box");
  box.hidden = f.you === null;
  if (f.you === null) return;
  const hand = document.getElementById("hand");
  hand.replaceChildren();
  const cards = ordered(view.hand || []);
  const deciding = f.moves.length > 0 && !sent;
  // fanned in as many rows as it takes for every card to stay on screen
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const cardW = rem * (window.innerWidth >= 900 ? 3.8 : 3.3);
  const perRow = Math.max(1, Math.floor(((hand.clientWidth || window.innerWidth - 16) - cardW) / (0.98 * rem)) + 1);
  const rows = Math.max(1, Math.ceil(cards.length / perRow));
  const each = Math.ceil(cards.length / rows);
  const rowEls = [];
  for (let r = 0; r < rows; r++) { rowEls.push(el("div", "hand-row")); hand.append(rowEls[r]); }
  cards.forEach((c, pos) => {
    const slot = el("span", "slot");
    const e = cardEl(c);
    e.dataset.pos = pos;
    e.dataset.focus = "hand:" + pos;
    e.setAttribute("role", "button");
    e.tabIndex = 0;
    const moves = deciding ? movesOf(c) : [];
    // the text shown first, then what it means
    let label = _("{label}, {spoken}", { label: cardLabel(c), spoken: cardSpoken(c) });
    if (moves.length) {
      e.classList.add("playable");
      label = moves.length === 1 ? _("{card}: {move}", { card: label, move: saySpoken(moveText(moves[0], c)) })
        : _n("{card}, {n} move", "{card}, {n} moves", moves.length, { card: label });
    } else if (deciding) {
      e.classList.add("idle");
      label = _("{card}, no move now: why not?", { card: label });
    }
    e.setAttribute("aria-label", label);
    if (c === selected && pos === cards.indexOf(c)) { e.classList.add("selected"); e.setAttribute("aria-pressed", "true"); }
    e.onclick = () => { if (dragged) { dragged = false; return; } tapCard(c); };
    e.onkeydown = (ev) => handKeys(ev, e, c);
    e.onpointerdown = (ev) => press(ev, e, c);
    slot.append(e);
    rowEls[Math.floor(pos / each)].append(slot);
  });
  document.getElementById("hand-title").textContent = _("Your hand ({n})", { n: cards.length });
  document.querySelectorAll(".sort").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.sort === sortMode)));
}

function tapCard(c) {
  if (!frame || sent) return;
  if (!frame.moves.length) { showError(_("It is not your turn yet.")); return; }
  hideError();
  const moves = movesOf(c);
  if (!moves.length) { selected = null; askWhy(c); return; }
  // a tap never plays: it picks the card and shows its moves; a move's button
  // (or a drag onto its target) plays it, a second and explicit gesture
  selected = selected === c ? null : c;
  render();
}

// ---- dragging a card: onto the pile, a meld, the table; or within the hand ----
let pressed = null; // {card, el, x, y, ghost}
let dragged = false; // a drag just ended: the click that follows is not a tap

function press(ev, e, c) {
  if (ev.button !== undefined && ev.button !== 0) return;
  pressed = { card: c, el: e, x: ev.clientX, y: ev.clientY, ghost: null, over: null };
}

function overTarget(x, y) {
  const under = document.elementFromPoint(x, y);
  if (!under) return null;
  return under.closest(".drop-target") || under.closest("#hand");
}

window.addEventListener("pointermove", (ev) => {
  if (!pressed) return;
  if (!pressed.ghost) {
    if (Math.hypot(ev.clientX - pressed.x, ev.clientY - pressed.y) < 8) return;
    pressed.ghost = cardEl(pressed.card);
    pressed.ghost.classList.add("ghost");
    pressed.ghost.style.width = pressed.el.offsetWidth + "px";
    pressed.ghost.style.height = pressed.el.offsetHeight + "px";
    document.body.append(pressed.ghost);
    pressed.el.classList.add("dragging");
  }
  pressed.ghost.style.left = ev.clientX + "px";
  pressed.ghost.style.top = ev.clientY + "px";
  const over = overTarget(ev.clientX, ev.clientY);
  if (over !== pressed.over) {
    if (pressed.over) pressed.over.classList.remove("drop-over");
    if (over && over.id !== "hand") over.classList.add("drop-over");
    pressed.over = over;
  }
});

window.addEventListener("pointerup", (ev) => {
  const p = pressed;
  pressed = null;
  if (!p || !p.ghost) return;
  p.ghost.remove();
  p.el.classList.remove("dragging");
  if (p.over) p.over.classList.remove("drop-over");
  dragged = true;
  setTimeout(() => { dragged = false; }, 0);
  const target = overTarget(ev.clientX, ev.clientY);
  if (!target) return;
  if (target.id === "hand") { reorder(p.card, Number(p.el.dataset.pos), ev.clientX); return; }
  dropOn(target, p.card, ev.clientX, ev.clientY);
});

window.addEventListener("pointercancel", () => {
  if (pressed && pressed.ghost) { pressed.ghost.remove(); pressed.el.classList.remove("dragging"); }
  pressed = null;
});

function reorder(c, from, x) {
  const cards = [...document.querySelectorAll("#hand .card")];
  let to = cards.findIndex((e) => x < e.getBoundingClientRect().left + e.getBoundingClientRect().width / 2);
  if (to < 0) to = cards.length;
  const names = cards.map((e) => e.dataset.card);
  names.splice(from, 1);
  names.splice(to > from ? to - 1 : to, 0, c);
  custom = names;
  sortMode = "custom";
  render();
}

function dropOn(target, c, x, y) {
  if (!frame || !frame.moves.length || sent) return;
  const moves = movesOf(c);
  const kind = target.dataset.drop;
  let fit = [];
  if (kind === "pile") fit = moves.filter((m) => m.kind === "discard");
  else if (kind === "meld") fit = moves.filter((m) => m.kind === "add" && m.rank === target.dataset.rank);
  else if (kind === "melds") fit = moves.filter((m) => m.kind === "meld" || m.kind === "add");
  else if (kind === "table") {
    const under = document.elementFromPoint(x, y);
    const onto = under && under.closest(".card[data-card]");
    fit = onto && target.contains(onto)
      ? moves.filter((m) => Array.isArray(m.takes) && m.takes.includes(onto.dataset.card))
      : moves.filter((m) => m.kind === "trail");
  }
  if (fit.length === 1) { play(fit[0], c); return; }
  if (!moves.length) { askWhy(c); return; }
  selected = c; // several moves (or none of that kind): the card's moves are shown
  render();
}

// ---- the keyboard: arrows move, Enter plays ------------------------------------
document.addEventListener("keydown", () => { usingKeys = true; }, true);
document.addEventListener("pointerdown", () => { usingKeys = false; }, true);

function handKeys(ev, e, c) {
  const cards = [...document.querySelectorAll("#hand .card")];
  const i = cards.indexOf(e);
  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    const next = cards[(i + (ev.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
    if (next) next.focus();
    ev.preventDefault();
  } else if (ev.key === "ArrowUp") {
    const first = document.querySelector("#moves button:not([disabled])");
    if (first) first.focus();
    ev.preventDefault();
  } else if (ev.key === "Enter" || ev.key === " ") {
    tapCard(c);
    ev.preventDefault();
  }
}

function moveKeys(ev, b) {
  const buttons = [...document.querySelectorAll("#moves button:not([disabled])")];
  const i = buttons.indexOf(b);
  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {
    const next = buttons[(i + (ev.key === "ArrowRight" ? 1 : buttons.length - 1)) % buttons.length];
    if (next) next.focus();
    ev.preventDefault();
  } else if (ev.key === "ArrowDown") {
    const card = document.querySelector("#hand .card.selected") || document.querySelector("#hand .card");
    if (card) card.focus();
    ev.preventDefault();
  }
}

function focusKey() {
  const a = document.activeElement;
  return a && a.dataset ? a.dataset.focus || null : null;
}

function restoreFocus(key, f) {
  if (key) {
    const again = document.querySelector('[data-focus="' + key + '"]');
    if (again && !again.disabled) { again.focus(); return; }
  }
  // a keyboard player's new decision: the focus goes to his moves
  if (usingKeys && f.moves.length && !sent && (!key || key.startsWith("move:") || key.startsWith("hand:"))) {
    const first = document.querySelector("#moves button.move:not([disabled])") || document.querySelector("#hand .card.playable");
    if (first) first.focus();
  }
}

// ---- inviting friends: the table's code, its join page, a QR code (share.js) ----
let shared = null;
function renderShare(f) {
  const t = f.table;
  document.getElementById("invite").hidden = !t.code;
  if (!t.code || shared === t.code) return;
  shared = t.code;
  const box = document.getElementById("share");
  box.replaceChildren();
  cardcoreShare(box, t);
  if (f.you !== null && t.id) { // this browser holds the seat: the lobby lists it ("back to the table")
    try {
      const all = JSON.parse(localStorage.getItem("cardcore-seats") || "{}") || {};
      all[t.id] = { link: location.pathname, table: t.name, title: t.title, seat: f.you, player: name(f.you) };
      localStorage.setItem("cardcore-seats", JSON.stringify(all));
    } catch (e) { /* private mode: not remembered */ }
  }
}

// ---- the page around ---------------------------------------------------------
function fitDock() {
  const dock = document.getElementById("dock");
  const h = dock.offsetHeight;
  document.body.style.paddingBottom = h + 8 + "px";
  document.documentElement.style.setProperty("--dock-h", h + "px");
  const decide = document.getElementById("decide");
  if (decide) decide.style.scrollMarginBottom = h + 8 + "px";
}

// At your decision what you decide on never hides under the dock: when the
// cards on the table (the pile, the table's cards) would, the page scrolls them
// up above it; once per decision, card picked and dock height (a person
// scrolling to look elsewhere is left there until something changes)
let inView = null;
function keepInView(f) {
  const decide = document.getElementById("decide");
  if (!f.moves.length || f.you === null || !decide) { inView = null; return; }
  const dock = document.getElementById("dock").getBoundingClientRect();
  const key = [f.decision, selected, Math.round(dock.height), window.innerHeight].join("/");
  if (key === inView) return;
  inView = key;
  const r = decide.getBoundingClientRect();
  const top = document.querySelector(".bar").getBoundingClientRect().bottom;
  if (r.bottom > dock.top - 4) window.scrollBy(0, Math.min(r.bottom - dock.top + 8, r.top - top - 4));
  else if (r.top < top) window.scrollBy(0, r.top - top - 4);
}

document.querySelectorAll(".tool").forEach((b) => {
  b.onclick = () => {
    const panel = document.getElementById(b.dataset.panel);
    const open = panel.hidden;
    document.querySelectorAll(".panel").forEach((p) => { if (p.id !== "history-box" || window.innerWidth < 900) p.hidden = true; });
    document.querySelectorAll(".tool").forEach((x) => x.setAttribute("aria-expanded", "false"));
    panel.hidden = !open;
    b.setAttribute("aria-expanded", String(open));
  };
});
document.querySelectorAll(".sort").forEach((b) => {
  b.onclick = () => {
    sortMode = b.dataset.sort;
    custom = null;
    localStorage.setItem("cardcore.sort", sortMode);
    if (frame) render();
  };
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") document.querySelectorAll(".panel").forEach((p) => { if (p.id !== "history-box" || window.innerWidth < 900) p.hidden = true; });
});
function showHistoryColumn() {
  const box = document.getElementById("history-box");
  if (window.innerWidth >= 900) box.hidden = false;
}
window.addEventListener("resize", () => { showHistoryColumn(); if (frame) { fitDock(); keepInView(frame); } });
showHistoryColumn();

// a new language picked: the page said again in it
document.addEventListener("cardcore-lang", () => { sayConn(); if (frame) render(); });
I18N.ready.then(connect); // the catalog first: the first frame is said in the page's language
