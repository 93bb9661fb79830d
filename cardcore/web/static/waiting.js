// A table that waits for its people (docs/WEB.md, "How a table is made, waits
// and starts"): no card is dealt until every person sat down (his page
// connected once), or until the table's maker presses Start (the seats nobody
// took then go to bots). The page says whom it waits for, shows Start to the
// maker only, and says which seats bots were given. table.js calls
// renderWaiting(frame) with each frame; send(), name(), sayText() are
// table.js's, el() cards.js's.
"use strict";

// whether seat i is a free seat (nobody took it: the table names it "free seat")
function isFreeSeat(f, i) {
  const d = f.table.name_says ? f.table.name_says[i] : null;
  return !!(d && typeof d === "object" && d.t === "free seat");
}

// an awaited seat as the page says it: a free seat by its number (from 1, as "Player 2"), a named seat by its name
function awaitedName(f, i) {
  return isFreeSeat(f, i) ? _("seat {n}", { n: i + 1 }) : name(i);
}

function renderWaiting(f) {
  const box = document.getElementById("waiting");
  if (!box) return;
  box.replaceChildren();
  const st = f.start;
  const stopped = f.status.phase === "stopped" || f.status.phase === "error";
  const waiting = !!(st && !st.begun && !stopped && st.awaited.length);
  box.classList.toggle("now", waiting); // in the middle of the table while it waits; a line after
  if (waiting) {
    const names = st.awaited.map((i) => awaitedName(f, i)).join(", ");
    box.append(el("p", "waiting-note", _n("Waiting for {n} person to sit down: {names}. No card is dealt before.",
      "Waiting for {n} people to sit down: {names}. No card is dealt before.", st.awaited.length, { names: names })));
    // the host's (the maker's); anyone's who sat down, once the host is away past the table's limit
    const hostGone = st.host !== null && st.host !== undefined && f.seats[st.host] && f.seats[st.host].coverable;
    if (f.you !== null && (f.you === st.host || (hostGone && !st.awaited.includes(f.you)))) {
      const b = el("button", "next start-table", _("Start now"));
      b.type = "button";
      b.id = "start-table";
      b.onclick = () => { b.disabled = true; send({ type: "start" }); };
      box.append(b, el("small", "muted", " " + _("A bot plays each seat nobody took.")));
    } else if (st.host !== null && st.host !== undefined) {
      box.append(el("small", "muted", _("{name} may start the table without waiting.", { name: name(st.host) })));
    }
  }
  if (waiting) {  // an awaited seat is not away: free if nobody took it, else its person is not here yet (table.js drew the plate)
    st.awaited.forEach((i) => {
      const free = isFreeSeat(f, i);
      document.querySelectorAll("#felt .seat[data-seat='" + i + "'], #you-spot .seat[data-seat='" + i + "']").forEach((chip) => {
        chip.classList.remove("away");
        chip.querySelectorAll(".meta .badge").forEach((b) => {
          if (b.textContent === _("away") || b.textContent === _("free")) b.textContent = free ? _("free") : _("not here yet");
        });
      });
    });
  }
  (st && st.notices ? st.notices : []).forEach((n) => box.append(el("p", "bot-note", sayText(n))));
  box.hidden = !box.childElementCount;
}
