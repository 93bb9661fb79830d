// What the lobby and the join page share: the seats this browser holds (their
// secret links, kept in localStorage), "Take this seat", and copy buttons.
"use strict";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// the levels a person picks (cardcore.levels), as the page's language names them
// (a function: the catalog is loaded after this script)
function levelWord(kind) {
  const words = {
    easy: _p("level", "easy"),
    normal: _p("level", "normal"),
    hard: _p("level", "hard"),
    expert: _p("level", "expert"),
  };
  return words[kind] || kind;
}

// a table's phase in words
function phaseWord(phase) {
  return { starting: _("starting"), playing: _("playing"), deal_over: _("deal over"), match_over: _("match over"),
    stopped: _("stopped"), error: _("error") }[phase] || phase;
}

// a table's name in the page's language ("Ana's Carrousel": name_say), else as the server wrote it
function tableName(t) { return t.name_say !== undefined ? say(t.name_say) : t.name; }
// a table's phase in words; a table waiting for its people says so
function tablePhase(t) {
  const waits = t.start && !t.start.begun && t.phase !== "stopped" && t.phase !== "error";
  return waits ? _("waiting for people") : phaseWord(t.phase);
}

function showError(text) {
  const e = document.getElementById("error");
  e.textContent = text;
  e.hidden = !text;
}

function stored(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) || "null") ?? fallback; } catch (e) { return fallback; }
}

function store(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode: not remembered */ }
}

// the seats this browser holds, by table id: {link, table, title, seat, player}
function mySeats() { return stored("cardcore-seats", {}); }

function keepSeat(id, seat) {
  const all = mySeats();
  if (seat) all[id] = seat; else delete all[id];
  store("cardcore-seats", all);
}

// a seat's name in the page's language (name_say), or undefined
function seatName(s) { return s ? (s.name_say !== undefined ? say(s.name_say) : s.name) : undefined; }

// "Your seat at TABLE → back to the table", for each table still open that this browser holds a seat at
function yourSeats(tables) {
  const mine = mySeats();
  const open = new Map(tables.map((t) => [t.id, t]));
  const list = el("ul", "your-seats");
  for (const [id, s] of Object.entries(mine)) {
    const t = open.get(id);
    if (!t) { keepSeat(id, null); continue; }  // the table is gone
    const li = el("li");
    const title = t.title_say !== undefined ? say(t.title_say) : t.title;
    li.append(el("span", "", _("Your seat at {table} ({title}), as {name}", { table: tableName(t), title: title, name: seatName(t.seats[s.seat]) ?? s.player }) + " "));
    const a = el("a", "back", _("→ back to the table"));
    a.href = s.link;
    li.append(a);
    list.append(li);
  }
  return list;
}

// A name input and "Sit down": takes seat `seat` of table `t`, then opens the table.
function takeForm(t, seat, onCancel) {
  const form = el("form", "take-form");
  const label = el("label", "", _("Your name") + " ");
  const input = el("input");
  input.name = "player";
  input.maxLength = 24;
  input.required = true;
  input.autocomplete = "nickname";
  input.value = stored("cardcore-name", "");
  input.placeholder = _("the name the others see");
  label.append(input);
  const sit = el("button", "sit", _("Sit down"));
  sit.type = "submit";
  const cancel = el("button", "cancel", _("Cancel"));
  cancel.type = "button";
  cancel.onclick = onCancel;
  const said = el("p", "form-error");
  said.setAttribute("role", "alert");
  said.hidden = true;
  form.append(label, sit, cancel, said);
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) { input.focus(); return; }
    sit.disabled = true;
    try {
      const r = await fetch("/api/tables/" + encodeURIComponent(t.id) + "/seats/" + seat, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name }),
      });
      const data = await r.json();
      if (!r.ok) throw new Error(data.say !== undefined ? say(data.say) : data.error || _("the seat could not be taken"));
      store("cardcore-name", name);
      keepSeat(data.id, { link: data.link, table: data.name, title: data.title, seat: data.seat, player: data.player });
      location.href = data.link;
    } catch (e) {
      said.textContent = String(e.message || e);
      said.hidden = false;
      sit.disabled = false;
    }
  };
  setTimeout(() => input.focus(), 0);
  return form;
}

// A copy button for the text of `input` (an <input readonly>); where the
// browser gives no clipboard (a page over plain http from another machine),
// the text is selected for Ctrl+C.
function copyButton(input, label) {
  const b = el("button", "copy", label || _("Copy"));
  b.type = "button";
  b.onclick = async () => {
    const done = (text) => { b.textContent = text; setTimeout(() => { b.textContent = label || _("Copy"); }, 2500); };
    if (navigator.clipboard && window.isSecureContext) {
      try { await navigator.clipboard.writeText(input.value); done(_("Copied")); return; } catch (e) { /* fall back */ }
    }
    input.focus();
    input.select();
    input.setSelectionRange(0, input.value.length);
    let copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    done(copied ? _("Copied") : _("Selected: press Ctrl+C"));
  };
  return b;
}

// A read-only text (a link, a code) with its copy button.
function copyField(text, label, cls) {
  const box = el("span", "copy-field " + (cls || ""));
  const input = el("input");
  input.readOnly = true;
  input.value = text;
  input.size = Math.min(Math.max(text.length, 5), 48);
  input.setAttribute("aria-label", label || _("link"));
  input.onfocus = () => input.select();
  box.append(input, copyButton(input, _("Copy")));
  return box;
}

// One seat of a table, as a list item: who sits there, or "Take this seat" when it is open.
// `taking` names the seat whose form is open ({id, seat}); `setTaking` opens or closes one.
function seatItem(t, s, taking, setTaking) {
  const li = el("li", "seat-line" + (s.open ? " open" : ""));
  const who = s.open ? "free" : s.person ? (s.connected ? "here" : "away") : s.kind;
  const words = { free: _("free"), here: _("here"), away: _("away") };
  // a level (normal, hard …) in the page's language; a bot's kind (greedy, ismcts …) is a
  // name of the interface: the same in every language. A default name ("Normal 2") is said
  // in the page's language too (name_say)
  const name = s.name_say !== undefined ? say(s.name_say) : s.name;
  li.append(el("span", "seat-who", name), el("span", "seat-state " + who, words[who] || levelWord(who)));
  if (s.open) {
    if (taking && taking.id === t.id && taking.seat === s.seat) {
      li.append(takeForm(t, s.seat, () => setTaking(null)));
    } else {
      const b = el("button", "take", _("Take this seat"));
      b.type = "button";
      b.onclick = () => setTaking({ id: t.id, seat: s.seat });
      li.append(b);
    }
  }
  return li;
}
