// The table page: one websocket, frames in (what this seat may see), moves out.
"use strict";
const token = location.pathname.split("/").pop();
let frame = null;
let selected = null; // the hand card clicked: its moves are shown
let ws = null;
let retries = 0;
let closedForGood = false;
let sent = false; // a move is on its way: no second click
let asked = null; // the decision a hint was asked for

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/ws/" + token + "?changes=1");
  ws.onopen = () => { retries = 0; setConn("connected", "ok"); };
  ws.onmessage = (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (m.type === "error") {
      showError(m.error);
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
    if (closedForGood || ev.code === 4404 || ev.code === 4001) { setConn("closed", "bad"); return; }
    setConn("reconnecting…", "bad");
    setTimeout(connect, Math.min(5000, 300 * 2 ** retries++));
  };
}

function setConn(text, cls) {
  const c = document.getElementById("conn");
  c.textContent = text;
  c.className = "conn " + cls;
}
function showError(text) {
  const e = document.getElementById("error");
  e.textContent = text;
  e.hidden = false;
}
function hideError() { document.getElementById("error").hidden = true; }

function name(seat) { return frame.table.names[seat] ?? "seat " + seat; }
function sideName(seats) { return seats.map(name).join(" & "); }

const CORE = new Set(["seat", "to_act", "turn", "dealer", "hand", "hand_sizes", "stock", "scores"]);

function render() {
  const f = frame, t = f.table, st = f.status, view = f.view || {};
  document.title = t.title + " · " + t.name;
  document.getElementById("title").textContent = t.title;
  document.getElementById("deal").textContent =
    (st.match > 1 ? "match " + st.match + " · " : "") + (st.deal ? "deal " + st.deal : "");
  document.getElementById("goal").textContent = t.goal;
  renderSeats(f, view);
  renderAway(f);
  renderScores(f);
  renderBoard(view);
  renderHistory(f.history);
  renderResult(f);
  renderPrompt(f, view);
  renderHand(f, view);
}

function renderSeats(f, view) {
  const box = document.getElementById("seats");
  box.replaceChildren();
  f.seats.forEach((s, i) => {
    const chip = el("div", "seat");
    if (i === view.turn && f.status.phase === "playing") chip.classList.add("turn");
    if (i === f.you) chip.classList.add("you");
    if (!s.connected) chip.classList.add("away");
    chip.append(el("strong", "", s.name + (i === f.you ? " (you)" : "")));
    const bits = [];
    bits.push(s.person ? "person" : s.kind);
    if (view.hand_sizes) bits.push(view.hand_sizes[i] + (view.hand_sizes[i] === 1 ? " card" : " cards"));
    if (i === view.dealer) bits.push("dealer");
    if (s.person && !s.connected) bits.push("away");
    chip.append(el("small", "", bits.join(" · ")));
    box.append(chip);
  });
  if (view.stock !== undefined) box.append(el("div", "seat stock", "stock: " + view.stock));
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
      box.append(el("p", "away-note", "A bot plays for " + s.name + " until " + s.name + " comes back."));
    } else if (s.coverable && f.you !== null && !["stopped", "error"].includes(f.status.phase)) {
      const b = el("button", "back cover", "Let a bot play for " + s.name);
      b.dataset.seat = i;
      b.title = s.name + " has been away a while; opening the link again takes the seat back";
      b.onclick = () => { b.disabled = true; send({ type: "cover", seat: i }); };
      box.append(b);
    }
  });
  box.hidden = !box.childElementCount;
}

function renderScores(f) {
  const box = document.getElementById("scores");
  box.replaceChildren();
  f.table.sides.forEach((seats, i) => {
    const s = el("span", "score");
    s.append(el("span", "", sideName(seats) + " "), el("strong", "", String(f.status.scores[i] ?? 0)));
    box.append(s);
  });
}

// The game's public view, drawn from its shapes: cards, builds, melds, piles, per-side items.
function renderBoard(view) {
  const box = document.getElementById("board");
  box.replaceChildren();
  for (const [key, value] of Object.entries(view)) {
    if (CORE.has(key)) continue;
    const row = el("div", "row");
    row.append(el("h3", "", key.replace(/_/g, " ")));
    row.append(valueEl(value, key));
    box.append(row);
  }
}

function valueEl(v, key) {
  if (v === null || v === undefined) return el("span", "muted", "—");
  if (isCardName(v)) return cardEl(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return el("span", "muted", key === "table" ? "empty" : "none");
    if (v.every((x) => x && typeof x === "object" && Array.isArray(x.seats))) {
      const sides = el("div", "sides");
      v.forEach((side) => sides.append(sideEl(side)));
      return sides;
    }
    const row = el("div", "cards");
    v.forEach((x) => row.append(valueEl(x, key)));
    return row;
  }
  if (typeof v === "object") {
    if (Array.isArray(v.build)) {
      const g = el("div", "group build");
      const cards = el("div", "cards");
      v.build.forEach((c) => cards.append(valueEl(c)));
      g.append(cards, el("small", "", "build of " + v.value + (v.owner !== undefined && v.owner !== null ? " · " + name(v.owner) : "")));
      return g;
    }
    if (Array.isArray(v.cards) && "rank" in v) {
      const g = el("div", "group meld" + (v.canasta ? " canasta" : ""));
      const cards = el("div", "cards");
      v.cards.forEach((c) => cards.append(cardEl(c)));
      g.append(cards, el("small", "", v.canasta ? v.canasta + " canasta" : v.cards.length + " cards"));
      return g;
    }
    if ("size" in v) {
      const g = el("div", "group pile");
      g.append(v.top ? cardEl(v.top) : el("span", "card empty", ""));
      const bits = [v.size + (v.size === 1 ? " card" : " cards")];
      if (v.frozen) bits.push("frozen");
      for (const [k, x] of Object.entries(v)) {
        if (!["top", "size", "frozen", "seats"].includes(k) && x !== null && typeof x !== "object") bits.push(k.replace(/_/g, " ") + " " + x);
      }
      g.append(el("small", v.frozen ? "frozen" : "", bits.join(" · ")));
      return g;
    }
    if (Array.isArray(v.seats)) return el("span", "", sideName(v.seats));
    const dl = el("div", "kv");
    for (const [k, x] of Object.entries(v)) {
      dl.append(el("span", "muted", k.replace(/_/g, " ") + ": "), valueEl(x, k));
    }
    return dl;
  }
  return el("span", "", String(v));
}

function sideEl(side) {
  const box = el("div", "side");
  box.append(el("h4", "", sideName(side.seats)));
  for (const [k, x] of Object.entries(side)) {
    if (k === "seats") continue;
    const line = el("div", "side-item");
    if (!("size" in side && (k === "top" || k === "size"))) line.append(el("span", "muted", k.replace(/_/g, " ") + " "));
    if (k === "size" && "top" in side) { line.append(valueEl({ top: side.top, size: side.size }, k)); box.append(line); continue; }
    if (k === "size") { line.append(el("span", "", x + (x === 1 ? " card" : " cards"))); box.append(line); continue; }
    if (k === "top" && "size" in side) continue;
    if (k === "melds" && Array.isArray(x)) {
      const melds = el("div", "melds");
      if (x.length === 0) melds.append(el("span", "muted", "none"));
      x.forEach((m) => melds.append(valueEl(m, k)));
      line.append(melds);
    } else {
      line.append(valueEl(x, k));
    }
    box.append(line);
  }
  return box;
}

function renderHistory(lines) {
  const box = document.getElementById("history");
  box.replaceChildren();
  lines.slice(-25).forEach((line) => {
    const li = el("li", "h-" + line.kind);
    li.append(richText(line.text));
    box.append(li);
  });
  box.scrollTop = box.scrollHeight;
}

function renderResult(f) {
  const box = document.getElementById("result");
  const st = f.status;
  box.replaceChildren();
  box.hidden = !(st.phase === "deal_over" || st.phase === "match_over" || st.phase === "stopped" || st.phase === "error");
  if (box.hidden) return;
  if (st.error) box.append(el("p", "error", st.error));
  if (st.result) {
    box.append(el("h2", "", "Deal " + st.result.deal));
    const table = el("table", "breakdown");
    st.result.sides.forEach((side, i) => {
      const tr = el("tr");
      tr.append(el("th", "", sideName(side.seats)), el("td", "points", String(side.points)));
      const detail = Object.entries(side.breakdown).map(([k, v]) => k.replace(/_/g, " ") + " " + v).join(", ");
      tr.append(el("td", "muted", detail), el("td", "", "total " + st.result.totals[i]));
      table.append(tr);
    });
    box.append(table);
  }
  if (st.phase === "deal_over" && f.you !== null) {
    const ready = st.ready.includes(f.you);
    const b = el("button", "next", ready ? "Waiting for the others…" : "Next deal");
    b.id = "next-deal";
    b.disabled = ready;
    b.onclick = () => { b.disabled = true; send({ type: "next" }); };
    box.append(b);
  }
  if (st.phase === "match_over" && st.winners) {
    const names = st.winners.map((w) => sideName(f.table.sides[w])).join(" and ");
    box.append(el("h2", "winner", names + (st.winners.length > 1 ? " share the win" : " win the match")));
    if (f.you !== null) {
      const b = el("button", "next", "New match");
      b.id = "new-match";
      b.onclick = () => { b.disabled = true; send({ type: "new_match" }); };
      box.append(b);
    }
  }
  if (st.phase === "stopped") box.append(el("p", "", "The table has stopped."));
}

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

function renderPrompt(f, view) {
  const status = document.getElementById("status");
  const box = document.getElementById("moves");
  box.replaceChildren();
  const st = f.status;
  if (st.phase !== "playing") {
    status.textContent = st.phase === "deal_over" ? "The deal is over." : st.phase === "match_over" ? "The match is over." : "";
    return;
  }
  if (!f.moves.length) {
    const who = f.seats[view.to_act];
    status.textContent = f.you === null ? name(view.to_act) + " to play." :
      "Waiting for " + name(view.to_act) + (who && who.person && !who.connected ? " (away)" : "") + "…";
    return;
  }
  let shown = f.moves;
  if (selected !== null) shown = f.moves.filter((m) => usesCard(m, selected) || !handCard(m));
  else if (f.moves.length > 12) shown = f.moves.filter((m) => !handCard(m));
  status.textContent = selected !== null ? "Your move with " + cardLabel(selected) + ":" :
    f.moves.length > 12 ? "Your move: click a card of your hand to see what it can do." : "Your move:";
  shown.forEach((m) => {
    const b = el("button", "move");
    b.dataset.index = m.index;
    b.dataset.kind = m.kind;
    const other = replaced(m, selected);
    b.append(richText(other ? m.text.replace(other, selected) : m.text));
    b.disabled = sent;
    b.onclick = () => {
      if (sent) return;
      sent = true;
      box.querySelectorAll("button").forEach((x) => (x.disabled = true));
      const message = { type: "move", decision: f.decision, index: m.index };
      if (other) message.cards = [selected];  // the picked card is laid (N8a)
      send(message);
    };
    box.append(b);
  });
  if (selected !== null) {
    const back = el("button", "back", "all moves");
    back.onclick = () => { selected = null; render(); };
    box.append(back);
  }
  const hint = el("button", "back hint", f.hint ? "hint given" : asked === f.decision ? "thinking…" : "hint");
  hint.id = "hint";
  hint.disabled = sent || asked === f.decision;
  hint.title = "what the strongest bot would play, seeing what you see";
  hint.onclick = () => { asked = f.decision; send({ type: "hint", decision: f.decision }); render(); };
  box.append(hint);
  if (f.hint) {
    const p = el("p", "hint-text");
    p.id = "hint-text";
    p.append(richText(f.hint.text));
    if (f.hint.estimates.length) {
      p.append(document.createTextNode(" — points it expects: "));
      f.hint.estimates.forEach((e, i) => {
        if (i) p.append(document.createTextNode("; "));
        p.append(richText(e.text + " " + (e.points >= 0 ? "+" : "") + e.points.toFixed(1) + " (" + e.deals + " deals)"));
      });
    }
    box.append(p);
    const best = box.querySelector('button.move[data-index="' + f.hint.index + '"]');
    if (best) best.classList.add("hinted");
  }
}

function renderHand(f, view) {
  const box = document.getElementById("hand-box");
  box.hidden = f.you === null;
  if (f.you === null) return;
  const hand = document.getElementById("hand");
  hand.replaceChildren();
  (view.hand || []).forEach((c) => {
    const e = cardEl(c);
    if (f.moves.some((m) => usesCard(m, c))) {
      e.classList.add("playable");
      e.tabIndex = 0;
      e.setAttribute("role", "button");
      const pick = () => { selected = selected === c ? null : c; render(); };
      e.onclick = pick;
      e.onkeydown = (ev) => { if (ev.key === "Enter" || ev.key === " ") pick(); };
    }
    if (c === selected) e.classList.add("selected");
    hand.append(e);
  });
  document.getElementById("hand-title").textContent = "Your hand (" + (view.hand || []).length + ")";
}

connect();
