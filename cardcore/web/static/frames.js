// Change frames (docs/WEB.md, "Change frames"): the page asks for them with
// ?changes=1; after a whole frame ({"type": "state"}) the server sends what
// changed ({"type": "change", "n", "base", ...}). nextFrame(prev, message)
// returns the whole frame the message brings, or null when it cannot be
// built (a change whose base is not the frame held: the page then sends
// {"type": "resync"} and gets a whole frame).
"use strict";
const CHANGE_KEYS = new Set(["type", "base", "view", "view_drop", "history_drop", "history_add"]);

function nextFrame(prev, m) {
  if (m.type === "state") return m;
  if (m.type !== "change" || !prev || prev.n !== m.base) return null;
  const f = Object.assign({}, prev);
  for (const [k, v] of Object.entries(m)) {
    if (!CHANGE_KEYS.has(k)) f[k] = v; // a top-level key: its new value, whole
  }
  if ("view" in m) {
    // null: no view; an object: the view's keys that changed (on the view held, if any)
    f.view = m.view === null ? null : Object.assign({}, prev.view || {}, m.view);
  }
  if (m.view_drop && f.view) {
    f.view = Object.assign({}, f.view);
    m.view_drop.forEach((k) => delete f.view[k]);
  }
  if (m.history_drop || m.history_add) {
    // the first history_drop lines go (a new deal: all of them), history_add come after the rest
    f.history = prev.history.slice(m.history_drop || 0).concat(m.history_add || []);
  }
  return f;
}
