// The join page (/join/CODE): a table's free seats, each with "Take this
// seat", its watch link, and its link and QR code to pass on. el(),
// seatItem() … come from seats.js, cardcoreShare() from share.js, loaded before.
"use strict";
const code = decodeURIComponent(location.pathname.split("/").pop() || "");
let taking = null;  // the seat whose form is open: {id, seat}
let last = null;

function setTaking(which) {
  taking = which;
  if (last) draw(last);
}

async function refresh() {
  if (taking) return;  // a name is being typed
  const r = await fetch("/api/join/" + encodeURIComponent(code));
  const data = await r.json();
  if (!r.ok) { showError(data.say !== undefined ? say(data.say) : data.error || _("no table with that code")); return; }
  last = data;
  draw(data);
}

function draw(data) {
  const t = data.table;
  const title = t.title_say !== undefined ? say(t.title_say) : t.title;
  document.title = _("{table} · join · cardcore", { table: tableName(t) });
  document.getElementById("join-code").textContent = _("table code {code}", { code: t.code });
  document.getElementById("join-title").textContent = _("{table} — {title}", { table: tableName(t), title: title });
  const stopped = t.phase === "stopped" || t.phase === "error";
  document.getElementById("join-status").textContent = stopped ? _("This table has stopped.")
    : _n("{n} seat · {phase}", "{n} seats · {phase}", t.seats.length, { phase: tablePhase(t) });
  const mine = yourSeats([t]);
  document.getElementById("mine").replaceChildren(mine);
  const list = document.getElementById("join-seats");
  list.replaceChildren();
  for (const s of t.seats) list.append(seatItem(t, s, mine.children.length ? null : taking, setTaking));
  if (mine.children.length) list.querySelectorAll("button.take").forEach((b) => b.remove());  // he sits here already
  document.getElementById("no-seat").hidden = t.seats.some((s) => s.open) || mine.children.length > 0;
  document.getElementById("join-watch").href = "/watch/" + t.watch;
  const share = document.getElementById("share-box");
  if (!share.children.length) cardcoreShare(share, t);  // share.js: the code, the link, the QR code
}

document.addEventListener("cardcore-lang", () => { if (last) draw(last); });
I18N.ready.then(refresh).catch((e) => showError(String(e)));
setInterval(() => refresh().catch(() => {}), 3000);
