// The lobby: running tables with their seats (a free one has "Take this
// seat"), the seats this browser holds, a table code box, and a form to open
// a table (validated by the server). el(), showError(), seatItem() … come
// from seats.js, loaded before.
"use strict";
let catalog = null;
let taking = null;  // the seat whose "Take this seat" form is open: {id, seat}
let shownQr = new Set();  // the tables whose QR code is shown
let last = null;  // the last list of tables, drawn again when a form opens or closes

// the server's address for links given to others (its network address with --lan)
function base() { return (last && last.base) || location.origin; }

function setTaking(which) {
  taking = which;
  if (last) drawTables(last);
}

async function refreshTables() {
  if (taking) return;  // a name is being typed: the list stays as it is
  const r = await fetch("/api/tables");
  last = await r.json();
  drawTables(last);
}

function drawTables(data) {
  const list = document.getElementById("tables");
  list.replaceChildren();
  if (!data.tables.length) list.append(el("li", "", _("none yet")));
  for (const t of data.tables) list.append(tableItem(t));
  const mine = yourSeats(data.tables);
  document.getElementById("mine").replaceChildren(mine);
  document.getElementById("mine-box").hidden = !mine.children.length;
}

function tableItem(t) {
  const li = el("li", "table-entry");
  li.dataset.table = t.id;
  const head = el("div", "t-head");
  const title = t.title_say !== undefined ? say(t.title_say) : t.title;
  head.append(el("strong", "", tableName(t) + " "), el("span", "", _("{title} · {phase}", { title: title, phase: tablePhase(t) }) + " "));
  if (t.code) head.append(el("span", "t-code", _("code {code}", { code: t.code })));
  li.append(head);
  const seats = el("ul", "t-seats");
  const mine = mySeats()[t.id];  // he sits here already: no other seat offered to him
  for (const s of t.seats) {
    const item = seatItem(t, s, mine ? null : taking, setTaking);
    if (mine) item.querySelectorAll("button.take").forEach((b) => b.remove());
    if (mine && mine.seat === s.seat) item.append(el("span", "seat-state you", _("you")));
    seats.append(item);
  }
  li.append(seats);
  const share = el("div", "t-share");
  const a = el("a", "", _("watch"));
  a.href = "/watch/" + t.watch;
  share.append(a);
  if (t.code) {
    share.append(copyField(base() + t.join, _("the table's join link")));
    const q = el("button", "qr-toggle", shownQr.has(t.id) ? _("Hide QR code") : _("QR code"));
    q.type = "button";
    q.onclick = () => { if (shownQr.has(t.id)) shownQr.delete(t.id); else shownQr.add(t.id); drawTables(last); };
    share.append(q);
  }
  const owner = owned()[t.id];
  if (owner) {  // a table this browser made: it may close it
    const b = el("button", "close-table", _("close"));
    b.type = "button";
    b.onclick = () => closeTable(t.id, owner);
    share.append(b);
  }
  li.append(share);
  if (t.code && shownQr.has(t.id)) {
    const img = el("img", "qr");
    img.src = "/api/tables/" + encodeURIComponent(t.id) + "/qr.svg";
    img.alt = _("QR code of the table's join page");
    li.append(img);
  }
  return li;
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
  if (!r.ok) { const data = await r.json(); showError(data.say !== undefined ? say(data.say) : data.error || _("the table could not be closed")); }
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
    const label = el("label", "", _("Seat {n}", { n: i + 1 }));  // counted from 1, as the seats' default names
    const name = el("input");
    name.maxLength = 40;
    name.placeholder = _("name");
    name.className = "seat-name";
    const kind = el("select");
    kind.className = "seat-kind";
    for (const k of g.kinds) {
      // a level in the person's words (its value, the kind, the same in every language); a bot's kind as it is
      const o = el("option", "", k === "human" ? _("person") : levelWord(k));
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
    const label = el("label", "", key);  // an option's name: the same in every language (as on the command line)
    const description = o.description_say !== undefined ? say(o.description_say) : o.description;
    label.title = description;
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
        const opt = el("option", "", v ? _("yes") : _("no"));
        opt.value = JSON.stringify(v);
        if (v === o.default) opt.selected = true;
        input.append(opt);
      }
    } else {
      input = el("input");
      input.placeholder = o.default === null ? _("default") : String(o.default);
    }
    input.dataset.option = key;
    label.append(input, el("small", "muted", description));
    box.append(label);
  }
  const rules = document.getElementById("rule-list");
  rules.replaceChildren();
  if (!g.house_rules.length) rules.append(el("span", "muted", _("none for this game")));
  for (const h of g.house_rules) {
    const label = el("label", "check");
    const box2 = el("input");
    box2.type = "checkbox";
    box2.value = h;
    // what the rule does, in the page's language; its id (as in games.yaml) beside it
    const said = g.house_rule_says && g.house_rule_says[h] !== undefined ? say(g.house_rule_says[h]) : "";
    const text = el("span", "", said || h);
    if (said) text.append(" ", el("small", "muted", h));
    label.append(box2, text);
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
  if (!r.ok) { showError(data.say !== undefined ? say(data.say) : data.error || _("the table could not be opened")); return; }
  if (data.owner) keepOwned(data.id, data.owner);
  const list = document.getElementById("links");
  list.replaceChildren();
  if (data.you) {  // he sits at his table: this browser keeps his seat, the table waits for the others
    store("cardcore-name", data.you.name);
    keepSeat(data.id, { link: data.you.link, table: data.name, title: data.title, seat: data.you.seat, player: data.you.name });
    const li = el("li", "your-seat");
    const a = el("a", "back sit-here", _("Sit at your table →"));
    a.href = data.you.link;
    li.append(el("span", "", _("Your seat: {n}, as {name}", { n: data.you.seat + 1, name: data.you.name }) + " "), a);
    list.append(li);
  }
  for (const s of data.seats) {
    if (data.you && s.seat === data.you.seat) continue;  // his own: not to send
    const li = el("li");
    const a = el("a", "", _("Seat {n}", { n: s.seat + 1 }));
    a.href = s.link;
    // the one who opens a seat's link sits there: this browser remembers it
    a.onclick = () => keepSeat(data.id, { link: s.link, table: data.name, title: data.title, seat: s.seat, player: s.name });
    li.append(a, el("span", "", " "), copyField(data.base + s.link, _("the secret link of seat {n}", { n: s.seat + 1 })));
    list.append(li);
  }
  const li = el("li");
  const a = el("a", "", _("watch"));
  a.href = data.watch;
  li.append(a, el("span", "", " "), copyField(data.base + data.watch, _("the watch link")));
  list.append(li);
  if (data.code) {  // the code and the QR code of the join page: any free seat, no link to send
    const j = el("li", "join-line");
    j.append(el("span", "", _("Table code") + " "), el("strong", "t-code", data.code), el("span", "", " · " + _("join page") + " "),
      copyField(data.base + data.join, _("the table's join link")));
    const img = el("img", "qr");
    img.src = "/api/tables/" + encodeURIComponent(data.id) + "/qr.svg";
    img.alt = _("QR code of the table's join page");
    j.append(img);
    list.append(j);
  }
  document.getElementById("created").hidden = false;
  refreshTables();
}

async function start() {
  catalog = await (await fetch("/api/catalog")).json();
  const game = document.getElementById("game");
  for (const g of catalog.games) {
    const o = el("option", "", g.title_say !== undefined ? say(g.title_say) : g.title);
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
    const o = el("option", "", _n("{name} ({game}, {n} player)", "{name} ({game}, {n} players)", t.players, { name: t.name, game: t.game }));
    o.value = t.name;
    conf.append(o);
  }
  document.getElementById("from-config").onsubmit = (ev) => {
    ev.preventDefault();
    const maker = document.getElementById("maker").value.trim();
    openTable(maker ? { table: conf.value, maker } : { table: conf.value });  // with his name, he sits there
  };
  document.getElementById("maker").value = stored("cardcore-name", "");
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
    const maker = document.getElementById("maker");
    if (kinds.includes("human")) {  // he sits at the first person's seat, under his name
      if (!maker.value.trim()) { showError(_("Type your name: you sit at the first person's seat.")); maker.focus(); return; }
      body.maker = maker.value.trim();
    }
    const seed = document.getElementById("seed").value.trim();
    if (seed) body.seed = /^-?\d+$/.test(seed) ? Number(seed) : seed;
    openTable(body);
  };
  document.getElementById("code-form").onsubmit = (ev) => {
    ev.preventDefault();
    const code = document.getElementById("code").value.replace(/[\s-]+/g, "").toUpperCase();
    if (code) location.href = "/join/" + encodeURIComponent(code);
  };
  refreshTables();
  setInterval(refreshTables, 3000);
}

// a new language picked: the lists said again in it (the form keeps what was chosen)
document.addEventListener("cardcore-lang", () => {
  if (last) drawTables(last);
  if (catalog) {
    const game = document.getElementById("game");
    [...game.options].forEach((o) => { const g = catalog.games.find((x) => x.name === o.value); if (g) o.textContent = g.title_say !== undefined ? say(g.title_say) : g.title; });
    fillSeats();
    fillOptions();
  }
});
I18N.ready.then(start).catch((e) => showError(String(e)));
