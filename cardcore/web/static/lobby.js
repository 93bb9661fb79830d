// The lobby: running tables, and a form to open one (validated by the server).
// el() comes from cards.js, loaded before.
"use strict";
let catalog = null;

function showError(text) {
  const e = document.getElementById("error");
  e.textContent = text;
  e.hidden = !text;
}

async function refreshTables() {
  const r = await fetch("/api/tables");
  const data = await r.json();
  const list = document.getElementById("tables");
  list.replaceChildren();
  if (!data.tables.length) list.append(el("li", "", "none yet"));
  for (const t of data.tables) {
    const li = el("li");
    const seats = t.seats.map((s) => s.name + (s.person ? (s.connected ? " (here)" : " (free or away)") : " (" + s.kind + ")")).join(", ");
    li.append(el("strong", "", t.name + " "), el("span", "", t.title + " · " + seats + " · " + t.phase.replace("_", " ") + " "));
    const a = el("a", "", "watch");
    a.href = "/watch/" + t.watch;
    li.append(a);
    const owner = owned()[t.id];
    if (owner) {  // a table this browser made: it may close it
      const b = el("button", "close-table", "close");
      b.type = "button";
      b.onclick = () => closeTable(t.id, owner);
      li.append(el("span", "", " "), b);
    }
    list.append(li);
  }
}

// the tokens of the tables this browser made (given once, by the server), by table id
function owned() {
  try { return JSON.parse(localStorage.getItem("cardcore-owned") || "{}"); } catch (e) { return {}; }
}

function keepOwned(id, token) {
  const all = owned();
  if (token) all[id] = token; else delete all[id];
  try { localStorage.setItem("cardcore-owned", JSON.stringify(all)); } catch (e) { /* private mode */ }
}

async function closeTable(id, owner) {
  showError("");
  const r = await fetch("/api/tables/" + encodeURIComponent(id), { method: "DELETE", headers: { "content-type": "application/json" }, body: JSON.stringify({ owner: owner }) });
  if (!r.ok) { const data = await r.json(); showError(data.error || "the table could not be closed"); }
  keepOwned(id, null);
  refreshTables();
}

function currentGame() {
  return catalog.games.find((g) => g.name === document.getElementById("game").value);
}

function fillPlayers() {
  const g = currentGame();
  const sel = document.getElementById("players");
  sel.replaceChildren();
  for (let n = g.min_players; n <= g.max_players; n++) {
    const o = el("option", "", String(n));
    o.value = n;
    if (n === g.default_players) o.selected = true;
    sel.append(o);
  }
  fillSeats();
  fillOptions();
}

function fillSeats() {
  const g = currentGame();
  const n = Number(document.getElementById("players").value);
  const box = document.getElementById("seat-list");
  box.replaceChildren();
  for (let i = 0; i < n; i++) {
    const label = el("label", "", "Seat " + i);
    const name = el("input");
    name.maxLength = 40;
    name.placeholder = "name";
    name.className = "seat-name";
    const kind = el("select");
    kind.className = "seat-kind";
    for (const k of g.kinds) {
      const o = el("option", "", k === "human" ? "person" : k);
      o.value = k;
      if ((i < 2 && k === "human") || (i >= 2 && k === (g.kinds.includes("normal") ? "normal" : "random"))) o.selected = true;
      kind.append(o);
    }
    label.append(name, kind);
    box.append(label);
  }
}

function fillOptions() {
  const g = currentGame();
  const box = document.getElementById("option-list");
  box.replaceChildren();
  for (const [key, o] of Object.entries(g.options)) {
    const label = el("label", "", key);
    label.title = o.description;
    let input;
    if (o.enum) {
      input = el("select");
      for (const v of o.enum) {
        const opt = el("option", "", String(v));
        opt.value = JSON.stringify(v);
        if (v === o.default) opt.selected = true;
        input.append(opt);
      }
    } else if (o.type === "boolean") {
      input = el("select");
      for (const v of [true, false]) {
        const opt = el("option", "", String(v));
        opt.value = JSON.stringify(v);
        if (v === o.default) opt.selected = true;
        input.append(opt);
      }
    } else {
      input = el("input");
      input.placeholder = o.default === null ? "default" : String(o.default);
    }
    input.dataset.option = key;
    label.append(input, el("small", "muted", o.description));
    box.append(label);
  }
  const rules = document.getElementById("rule-list");
  rules.replaceChildren();
  if (!g.house_rules.length) rules.append(el("span", "muted", "none for this game"));
  for (const h of g.house_rules) {
    const label = el("label", "check");
    const box2 = el("input");
    box2.type = "checkbox";
    box2.value = h;
    label.append(box2, el("span", "", h));
    rules.append(label);
  }
}

function optionValue(input) {
  if (input.tagName === "SELECT") return JSON.parse(input.value);
  const text = input.value.trim();
  if (text === "") return undefined;
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

async function openTable(body) {
  showError("");
  const r = await fetch("/api/tables", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await r.json();
  if (!r.ok) { showError(data.error || "the table could not be opened"); return; }
  if (data.owner) keepOwned(data.id, data.owner);
  const list = document.getElementById("links");
  list.replaceChildren();
  for (const s of data.seats) {
    const li = el("li");
    const a = el("a", "", s.name + " (seat " + s.seat + ")");
    a.href = s.link;
    li.append(a, el("span", "", " "), el("code", "", location.origin + s.link));
    list.append(li);
  }
  const li = el("li");
  const a = el("a", "", "watch");
  a.href = data.watch;
  li.append(a, el("span", "", " "), el("code", "", location.origin + data.watch));
  list.append(li);
  document.getElementById("created").hidden = false;
  refreshTables();
}

async function start() {
  catalog = await (await fetch("/api/catalog")).json();
  const game = document.getElementById("game");
  for (const g of catalog.games) {
    const o = el("option", "", g.title);
    o.value = g.name;
    game.append(o);
  }
  game.onchange = fillPlayers;
  document.getElementById("players").onchange = fillSeats;
  fillPlayers();
  const conf = document.getElementById("config-table");
  const configured = catalog.tables.filter((t) => t.name);
  if (!configured.length) document.getElementById("from-config").hidden = true;
  for (const t of configured) {
    const o = el("option", "", t.name + " (" + t.game + ", " + t.players + " players)");
    o.value = t.name;
    conf.append(o);
  }
  document.getElementById("from-config").onsubmit = (ev) => { ev.preventDefault(); openTable({ table: conf.value }); };
  document.getElementById("new-table").onsubmit = (ev) => {
    ev.preventDefault();
    const names = [...document.querySelectorAll(".seat-name")].map((i) => i.value.trim());
    const kinds = [...document.querySelectorAll(".seat-kind")].map((i) => i.value);
    const options = {};
    document.querySelectorAll("[data-option]").forEach((i) => {
      const v = optionValue(i);
      if (v !== undefined) options[i.dataset.option] = v;
    });
    const body = {
      game: game.value,
      players: kinds.map((k, i) => (names[i] ? { name: names[i], kind: k } : { kind: k })),
      options,
      house_rules: [...document.querySelectorAll("#rule-list input:checked")].map((i) => i.value),
    };
    const name = document.getElementById("name").value.trim();
    if (name) body.name = name;
    const seed = document.getElementById("seed").value.trim();
    if (seed) body.seed = /^-?\d+$/.test(seed) ? Number(seed) : seed;
    openTable(body);
  };
  refreshTables();
  setInterval(refreshTables, 3000);
}

start().catch((e) => showError(String(e)));
