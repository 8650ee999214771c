// @ts-check
// The side panel of the game: the move log and the chat. The panel is built once per game
// page and only its lists change when the state does, so text being typed into the chat keeps
// its place, caret and focus while the others move (the text is in the store's draft too).
import { t } from "./i18n.js";
import { h, icon } from "./util.js";
import { getState, setDraft, update } from "./store.js";
import { rulesView } from "./rules.js";
import { mutedSeats, setMuted } from "./moderation.js";

/** A list that follows its newest entry, unless the reader scrolled up (`follow` false).
 * @typedef {HTMLElement & {follow?: boolean}} Followed */

/** @param {Followed} list */
const atEnd = (list) => list.scrollTop + list.clientHeight >= list.scrollHeight - 4;

// A list that follows its newest entry (kept scrolled to its end) unless the reader scrolled
// up; scrolled back to the end, it follows again.
/**
 * @template {HTMLElement} E
 * @param {E} list
 * @returns {E & Followed}
 */
function followed(list) {
  const out = /** @type {E & Followed} */ (list);
  out.follow = true;
  out.addEventListener("scroll", () => { if (out.clientHeight) out.follow = atEnd(out); }, { passive: true });
  return out;
}

// Fill a list, scrolled to its end if it follows (or `always`), else where the reader left it.
/**
 * @param {Followed} list
 * @param {Node[]} items
 * @param {boolean} [always]
 */
function refill(list, items, always = false) {
  const top = list.scrollTop;
  list.replaceChildren(...items);
  if (always) list.follow = true;
  list.scrollTop = list.follow ? list.scrollHeight : top;
}

export class SidePanel {
  // `send(text)` sends a chat message, `request(msg)` another message (a mute).
  /**
   * @param {(text: string) => unknown} send
   * @param {(msg: import("./types.js").ClientMsg) => Promise<unknown>} request
   */
  constructor(send, request) {
    this.request = request;
    const s = getState();
    /** @param {"log" | "chat" | "rules"} name */
    const tab = (name) => h("button", { class: "tab", type: "button", dataset: { tab: name },
      onclick: () => update((st) => { st.ui.sideTab = name; if (name === "chat") st.unread = 0; }) });
    this.tabs = { log: tab("log"), chat: tab("chat"), rules: tab("rules") };
    this.log = followed(h("ol", { class: "log-list" }));
    this.chat = followed(h("ol", { class: "chat-list" }));
    const limit = s.info && s.info.limits ? s.info.limits.chat : null;
    this.input = h("input", { id: "chat-input", maxlength: limit, autocomplete: "off", "data-i18n-placeholder": "side.chat_placeholder" });
    this.input.value = s.draft.chat;
    this.input.addEventListener("input", () => setDraft("chat", this.input.value));
    this.form = h("form", { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      const text = this.input.value.trim();
      if (!text) return;
      this.input.value = "";
      setDraft("chat", "");
      send(text);
    } }, this.input, h("button", { class: "btn small", i18n: "side.send" }));
    this.rules = h("div", { class: "rules-pane", id: "rules-pane" });
    this.mutes = h("div", { class: "chat-mutes", id: "chat-mutes" });
    this.el = h("aside", { class: "side" }, h("div", { class: "tabs" }, this.tabs.log, this.tabs.chat, this.tabs.rules),
      h("div", { class: "side-body" }, this.log, this.mutes, this.chat, this.rules, this.form));
    /** What the lists show: the chat (its array, and its length then), the tab, the rules
     * (and the language they are in), the muted seats.
     * @type {{chat: unknown[] | null, count: number, tab: string | null, rules?: unknown, lang?: string, muted?: string}} */
    this.shown = { chat: null, count: 0, tab: null };
  }

  // Draw the lists of state `c` (the game view's context); `describe(entry)` words a log entry.
  /**
   * @param {import("./types.js").Ctx} c
   * @param {(e: import("./types.js").LogEntry) => import("./util.js").Child} describe
   */
  render(c, describe) {
    const s = c.s;
    const onChat = s.ui.sideTab === "chat";
    const onRules = s.ui.sideTab === "rules";
    const onLog = !onChat && !onRules;
    this.tabs.log.textContent = t("side.log");
    this.tabs.chat.textContent = t("side.chat") + (s.unread ? ` (${s.unread})` : "");
    this.tabs.rules.textContent = t("side.rules");
    this.tabs.log.classList.toggle("active", onLog);
    this.tabs.chat.classList.toggle("active", onChat);
    this.tabs.rules.classList.toggle("active", onRules);
    this.log.hidden = !onLog;
    this.chat.hidden = !onChat;
    this.rules.hidden = !onRules;
    if (onRules && (this.shown.rules !== c.room.rules || this.shown.lang !== t("side.rules"))) {
      // the room's rules (drawn again when they or the language change)
      this.shown.rules = c.room.rules;
      this.shown.lang = t("side.rules");
      const room = getState().room;
      this.rules.replaceChildren(rulesView(c.room, room && room.game));
    }
    this.form.hidden = !onChat || (c.seat == null && !c.room.settings.spectator_chat);
    refill(this.log, c.g.log.map((e) => h("li", { class: `log-${e.action}` }, describe(e))));
    const muted = new Set(mutedSeats(c.room.code));
    this.drawMutes(c, muted, onChat);
    const mutedKey = [...muted].join(",");
    if (this.shown.chat !== s.chat || this.shown.count !== s.chat.length || this.shown.tab !== s.ui.sideTab
        || this.shown.muted !== mutedKey) {
      Object.assign(this.shown, { chat: s.chat, count: s.chat.length, muted: mutedKey });
      // lines of a seat muted here are hidden (the server sends no new ones)
      // a spectator's line says so (where the room lets spectators chat)
      refill(this.chat, s.chat.filter((m) => m.seat == null || !muted.has(m.seat)).map((m) => h("li", { class: m.seat == null ? "chat-spectator" : "" },
        h("b", {}, m.seat == null ? `${m.name ? t("chat.spectator_named", { name: m.name }) : t("chat.spectator")}: ` : `${m.name}: `), m.text)), true);
    }
    if (this.shown.tab !== s.ui.sideTab && onLog) { this.log.follow = true; this.log.scrollTop = this.log.scrollHeight; }
    this.shown.tab = s.ui.sideTab;
  }

  // A toggle per other person of the room: mute his chat here, or hear it again.
  /**
   * @param {import("./types.js").Ctx} c
   * @param {Set<number>} muted
   * @param {boolean} onChat
   */
  drawMutes(c, muted, onChat) {
    const others = c.room.seats.filter((seat, i) => seat.kind === "human" && seat.taken && i !== c.seat);
    this.mutes.hidden = !onChat || !others.length;
    if (this.mutes.hidden) return;
    this.mutes.replaceChildren(h("span", { class: "muted" }, t("mod.mute_label")), ...others.map((seat) => {
      const on = muted.has(seat.seat);
      const name = c.name(seat.seat);
      return h("button", { class: "mute-toggle" + (on ? " on" : ""), id: `mute-${seat.seat}`, type: "button",
        "aria-pressed": on ? "true" : "false", title: t(on ? "mod.unmute_title" : "mod.mute_title", { name }),
        onclick: () => {
          setMuted(c.room.code, seat.seat, !on, this.request).catch(() => { /* shown by the request */ });
          update(() => {});
        } }, icon(on ? "muted" : "sound"), h("span", {}, name));
    }));
  }
}
