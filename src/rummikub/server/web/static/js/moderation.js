// @ts-check
// Moderation in a room: the seats whose chat this browser muted (kept per room in
// localStorage and sent to the server again whenever it enters the room), being removed from a
// room by its host, and the dialog that reports a player to the server's operator.
import { t, translate } from "./i18n.js";
import { getState } from "./store.js";
import { forgetSeat, h, navigate, toast } from "./util.js";

/** @param {string} code */
const key = (code) => `rummikub.muted.${code}`;

// The seats of room `code` whose chat is muted here.
/**
 * @param {string} code
 * @returns {number[]}
 */
export function mutedSeats(code) {
  try {
    const seats = JSON.parse(localStorage.getItem(key(code)) || "[]");
    return Array.isArray(seats) ? seats.filter((x) => Number.isInteger(x)) : [];
  } catch { return []; }
}

// Mute (`on`) or unmute seat `seat` of room `code`, here and, by `send(msg)`, on the server.
/**
 * @template R
 * @param {string} code
 * @param {number} seat
 * @param {boolean} on
 * @param {(msg: import("./types.js").ClientMsg) => R} send
 * @returns {R}
 */
export function setMuted(code, seat, on, send) {
  const seats = new Set(mutedSeats(code));
  if (on) seats.add(seat); else seats.delete(seat);
  try { localStorage.setItem(key(code), JSON.stringify([...seats].sort())); } catch { /* storage off */ }
  return send({ type: "mute", seat, on });
}

// The connection entered room `code` (joined, resumed or watches it; `own`: its seat): the
// server forgot the mutes with the old connection, so they are sent again (with an id of this
// page's requests: a refusal, say of a seat the room no longer has, is not shown).
/**
 * @param {import("./net.js").Net} net
 * @param {string} code
 * @param {number | null | undefined} own
 */
export function sendMutes(net, code, own) {
  for (const seat of mutedSeats(code)) {
    if (seat !== own) net.send({ type: "mute", id: "c-mute", seat, on: true });
  }
}

// The host removed this browser's person from room `code`: its seat is forgotten and the page
// goes back to the lobby, saying so.
/** @param {string} code */
export function removed(code) {
  forgetSeat(code);
  const s = getState();
  if (s.room && s.room.code === code) navigate("/");
  toast(t("mod.removed", { code }), "error");
}

// The dialog reporting seat `seat` (named `name`) of the room: a reason, then Send (the
// server stores the report; the dialog says so and closes) or Cancel. `request(msg)` sends a
// message and resolves with the reply (rejects with a refusal).
/**
 * @param {number} seat
 * @param {string} name
 * @param {(msg: import("./types.js").ClientMsg) => Promise<unknown>} request
 */
export function openReport(seat, name, request) {
  closeReport();
  const info = getState().info;
  const limits = info && info.limits;
  const reason = h("textarea", { id: "report-reason", rows: 3, maxlength: limits && limits.reason ? limits.reason : 500 });
  const error = h("p", { class: "report-error", id: "report-error", role: "alert", hidden: true });
  const send = h("button", { class: "btn primary", id: "report-send", type: "submit" }, t("mod.send_report"));
  const form = h("form", { class: "card report-dialog", id: "report-dialog", role: "dialog", "aria-modal": "true",
    "aria-labelledby": "report-title", onsubmit: async (e) => {
      e.preventDefault();
      // one line: the server takes printable characters only
      const text = reason.value.replace(/\s+/g, " ").trim();
      if (!text) { show(error, t("mod.need_reason")); reason.focus(); return; }
      send.disabled = true;
      try {
        await request({ type: "report", seat, reason: text });
        closeReport();
        toast(t("mod.reported"));
      } catch (err) {
        const refusal = /** @type {import("./types.js").Refusal} */ (err);
        send.disabled = false;
        show(error, refusal.code === "disconnected" ? t("conn.lost") : refusal.message);
      }
    } },
    h("h2", { id: "report-title" }, t("mod.report_title", { name })),
    h("p", { class: "muted" }, t("mod.report_text", { name })),
    h("label", { for: "report-reason", i18n: "mod.reason" }), reason, error,
    h("div", { class: "form-row" }, send,
      h("button", { class: "btn", id: "report-cancel", type: "button", onclick: closeReport }, t("mod.cancel"))));
  const overlay = h("div", { class: "overlay report-overlay", id: "report-overlay",
    onclick: (e) => { if (e.target === overlay) closeReport(); },
    onkeydown: (e) => { if (e.key === "Escape") closeReport(); } }, form);
  translate(overlay);
  document.body.append(overlay);
  reason.focus();
}

export function closeReport() {
  const open = document.getElementById("report-overlay");
  if (open) open.remove();
}

/**
 * @param {HTMLElement} el
 * @param {string} text
 */
function show(el, text) {
  el.textContent = text;
  el.hidden = false;
}
