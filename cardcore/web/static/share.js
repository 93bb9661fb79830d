// A table's share panel: its code, its join page's link with a copy button,
// and the QR code of that page. Self-contained (no other script needed), for
// any page that has a frame's `table`:   cardcoreShare(box, frame.table)
// The link is the server's (its network address with `serve --lan`), asked
// of /api/join/CODE; the QR code is /api/tables/ID/qr.svg.
"use strict";
const cardcoreShare = (() => {
  function make(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // navigator.clipboard where the browser gives it; else (plain http from
  // another machine) the text is selected, and the browser's copy tried
  async function copy(input, button) {
    const said = (text) => { button.textContent = text; setTimeout(() => { button.textContent = _("Copy"); }, 2500); };
    if (navigator.clipboard && window.isSecureContext) {
      try { await navigator.clipboard.writeText(input.value); said(_("Copied")); return; } catch (e) { /* fall back */ }
    }
    input.focus();
    input.setSelectionRange(0, input.value.length);
    let copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    said(copied ? _("Copied") : _("Selected: press Ctrl+C"));
  }

  return async function cardcoreShare(box, table) {
    if (!table || !table.code) return;
    let url = location.origin + table.join;
    try {
      const r = await fetch("/api/join/" + encodeURIComponent(table.code));
      if (r.ok) url = (await r.json()).url;
    } catch (e) { /* the page's own address, then */ }
    const code = make("p", "share-code");
    code.append(make("span", "", _("Table code") + " "), make("strong", "t-code", table.code));
    const field = make("span", "copy-field share-link");
    const input = make("input");
    input.readOnly = true;
    input.value = url;
    input.setAttribute("aria-label", _("the table's join link"));
    input.onfocus = () => input.select();
    const button = make("button", "copy", _("Copy"));
    button.type = "button";
    button.onclick = () => copy(input, button);
    field.append(input, button);
    const qr = make("img", "qr");
    qr.src = "/api/tables/" + encodeURIComponent(table.id) + "/qr.svg";
    qr.alt = _("QR code of the table's join page: {url}", { url: url });
    box.replaceChildren(code, field, qr);
  };
})();
