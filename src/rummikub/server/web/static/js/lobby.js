// @ts-check
// The lobby: play against bots now, create a room, join with a code, open games to watch.
// The choices offered (players, opponents, the grace period) come from the server's /api/info.
import { t, translate, presetLabel, xpressSummary } from "./i18n.js";
import { loadInfo } from "./info.js";
import { getState, subscribe, update } from "./store.js";
import { h, toast, navigate, saveSeat, playerName, setPlayerName, getJSON, botName, listedNames } from "./util.js";
import { currentAccount, loadSession, sessionGames } from "./account.js";
import { myGamesCard, quickMatchCard, requeue } from "./ranked.js";

// How many rooms of each list the lobby asks for at first and for each "show more".
const PAGE = 50;
const REFRESH_MS = 5000;

/** @typedef {import("./types.js").TileRules} TileRules */
/** @typedef {import("./types.js").SeatSpec} SeatSpec */

/**
 * @param {string[]} levels
 * @param {string} value
 * @param {import("./util.js").Attrs} [attrs]
 */
function levelSelect(levels, value, attrs = {}) {
  return h("select", attrs, levels.map((l) => h("option", { value: l, selected: l === value }, t(`bot.${l}`))));
}


/**
 * @param {Record<string, TileRules>} presets
 * @param {import("./util.js").Attrs} [attrs]
 */
function presetSelect(presets, attrs = {}) {
  return h("select", attrs, Object.keys(presets).map((p) =>
    h("option", { value: p, selected: p === "standard" }, presetLabel(p, presets[p]))));
}

// Fill `select` with the numbers lo..hi, keeping its choice (or `fallback`) within them.
/**
 * @param {HTMLSelectElement} select
 * @param {number} lo
 * @param {number} hi
 * @param {number} fallback
 */
function numberOptions(select, lo, hi, fallback) {
  const old = Number(select.value || fallback);
  select.replaceChildren(...Array.from({ length: Math.max(0, hi - lo + 1) }, (_, k) => h("option", { value: lo + k }, String(lo + k))));
  select.value = String(Math.max(lo, Math.min(hi, old)));
}

// The room's rules in the page: turn time, rounds or a target score, the joker rule and the
// penalties, each starting from the chosen preset (sent as a rules object over the preset).
const TURN_TIMES = [30, 45, 60, 90, 120, 180, 240, 300];

// A number field's value, or null when it is not a whole number between its min and max: the
// field is marked and a message names it and its range (nothing is silently changed).
/** @param {HTMLInputElement} el */
export function checkedNumber(el) {
  const v = Number(el.value);
  const min = el.min === "" ? -Infinity : Number(el.min), max = el.max === "" ? Infinity : Number(el.max);
  if (el.value.trim() !== "" && Number.isInteger(v) && v >= min && v <= max) { el.classList.remove("invalid"); return v; }
  const label = el.closest("label");
  const name = (label && label.querySelector("span") || { textContent: el.id }).textContent || el.id;
  el.classList.add("invalid");
  el.setAttribute("aria-invalid", "true");
  el.addEventListener("input", () => { el.classList.remove("invalid"); el.removeAttribute("aria-invalid"); }, { once: true });
  const details = el.closest("details");
  if (details) details.open = true;
  el.focus();
  toast(t("lobby.out_of_range", { field: name, min, max }), "error");
  return null;
}

/**
 * @param {Record<string, TileRules>} presets
 * @param {HTMLSelectElement} presetSelectEl
 */
function rulesForm(presets, presetSelectEl) {
  /**
   * @param {string} id
   * @param {number} min
   * @param {number} max
   */
  const num = (id, min, max) => h("input", { type: "number", id, min, max, inputmode: "numeric" });
  const turn = h("select", { id: "room-turn" }, h("option", { value: "" }, t("lobby.no_clock")),
    TURN_TIMES.map((s) => h("option", { value: s }, t("lobby.seconds", { s }))));
  const matchKind = h("select", { id: "room-match" }, h("option", { value: "rounds" }, t("lobby.by_rounds")),
    h("option", { value: "target" }, t("lobby.by_target")));
  const rounds = num("room-rounds", 1, 20);
  const target = num("room-target", 50, 1000);
  const joker = h("select", { id: "room-joker" }, h("option", { value: "free" }, t("lobby.joker_free")),
    h("option", { value: "strict" }, t("lobby.joker_strict_option")));
  const invalid = h("select", { id: "room-invalid" }, h("option", { value: "reject" }, t("lobby.invalid_reject")),
    h("option", { value: "penalty" }, t("lobby.invalid_penalty_option")));
  const invalidPenalty = num("room-invalid-penalty", 1, 10);
  const timeoutPenalty = num("room-timeout-penalty", 0, 10);
  // each field is in its label (below)
  /** @param {HTMLElement} el */
  const labelOf = (el) => /** @type {HTMLLabelElement} */ (el.closest("label"));
  const show = () => {
    labelOf(rounds).hidden = matchKind.value !== "rounds";
    labelOf(target).hidden = matchKind.value !== "target";
    labelOf(invalidPenalty).hidden = invalid.value !== "penalty";
  };
  // every field from the preset
  const fill = () => {
    const p = presets[presetSelectEl.value];
    const secs = p.turn_seconds;
    turn.value = secs == null ? "" : String(TURN_TIMES.reduce((a, b) => (Math.abs(b - secs) < Math.abs(a - secs) ? b : a)));
    const m = p.match || { rounds: 1, target: null };
    matchKind.value = m.rounds == null && m.target != null ? "target" : "rounds";
    rounds.value = String(m.rounds ?? 1);
    target.value = String(m.target ?? 200);
    joker.value = p.joker_rule;
    invalid.value = p.invalid_play;
    invalidPenalty.value = String(Math.max(1, p.invalid_penalty));
    timeoutPenalty.value = String(p.timeout_penalty);
    show();
  };
  matchKind.addEventListener("change", show);
  invalid.addEventListener("change", show);
  presetSelectEl.addEventListener("change", fill);
  /**
   * @param {string} key
   * @param {HTMLElement} el
   */
  const label = (key, el) => h("label", {}, h("span", { i18n: key }), el);
  const el = h("details", { class: "rules-form", id: "room-rules" }, h("summary", { i18n: "lobby.more_rules" }),
    h("div", { class: "form-row" }, label("lobby.turn_time", turn), label("lobby.match", matchKind),
      label("lobby.rounds", rounds), label("lobby.target", target)),
    h("div", { class: "form-row" }, label("lobby.joker_rule", joker), label("lobby.invalid_play", invalid),
      label("lobby.invalid_penalty", invalidPenalty), label("lobby.timeout_penalty", timeoutPenalty)));
  fill();
  // the rules object sent with `create`: the preset, and what the form sets (null: a number
  // out of its range, which the form names)
  const rules = () => {
    const n = matchKind.value === "rounds" ? checkedNumber(rounds) : checkedNumber(target);
    const penalty = invalid.value === "penalty" ? checkedNumber(invalidPenalty) : 1;
    const timeout = n == null || penalty == null ? null : checkedNumber(timeoutPenalty);
    if (n == null || penalty == null || timeout == null) return null;
    return {
      preset: presetSelectEl.value,
      turn_seconds: turn.value === "" ? null : Number(turn.value),
      match: matchKind.value === "rounds" ? { rounds: n, target: null } : { rounds: null, target: n },
      joker_rule: joker.value,
      invalid_play: invalid.value,
      invalid_penalty: invalid.value === "penalty" ? penalty : Math.max(1, Number(invalidPenalty.value) || 1),
      timeout_penalty: timeout,
    };
  };
  return { el, rules };
}

/**
 * @param {import("./net.js").Net} net
 * @param {import("./types.js").ClientMsg} msg
 */
async function create(net, msg) {
  try {
    await net.whenOpen(); // a button pressed while the page still connects waits for it
    /** @type {import("./types.js").JoinedMsg} */
    const reply = await net.request(msg);
    saveSeat(reply.room, reply.seat, reply.token);
    navigate(`/r/${reply.room}`);
  } catch (err) {
    toast(/** @type {import("./types.js").Refusal} */ (err).message || t("error.generic"), "error");
  }
}

export class Lobby {
  /**
   * @param {HTMLElement} root
   * @param {import("./net.js").Net} net
   */
  constructor(root, net) {
    this.root = root;
    this.net = net;
    this.built = false;
    /** @type {import("./types.js").RoomList | null} */
    this.shownRooms = null;
    this.unsubscribe = subscribe((s, what) => this.render(what));
    update((s) => { s.lobby = { rooms: null, shown: PAGE }; });
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    loadInfo().catch(() => {});
    this.render();
    // the account's unfinished games, as they are now (one may have ended since the page opened)
    const before = JSON.stringify(sessionGames());
    loadSession().then(() => {
      if (this.built && JSON.stringify(sessionGames()) !== before) this.render("account");
    });
  }

  destroy() {
    clearInterval(this.timer);
    this.unsubscribe();
  }

  onReconnect() { requeue(this.net); }

  async refresh() {
    try {
      /** @type {import("./types.js").RoomList} */
      const rooms = await getJSON(`/api/rooms?limit=${getState().lobby.shown}`);
      update((s) => { s.lobby.rooms = rooms; });
    } catch { /* offline */ }
  }

  /** @param {import("./store.js").What} [what] */
  render(what) {
    const s = getState();
    if (!s.info) return;
    if (!this.built || what === "language" || what === "account") {
      this.build(s.info);
      this.built = true;
      this.shownRooms = null;
      this.refresh();
    }
    if (s.lobby.rooms && s.lobby.rooms !== this.shownRooms) {
      this.shownRooms = s.lobby.rooms;
      const most = (s.info.limits || {}).rooms;
      drawGames(/** @type {HTMLElement} */ (this.root.querySelector("#game-list")), s.lobby.rooms, most, () => {
        update((st) => { st.lobby.shown = Math.min(most ?? Infinity, st.lobby.shown + PAGE); });
        this.refresh();
      });
    }
  }

  /** @param {import("./types.js").Info} info */
  build(info) {
    const net = this.net;
    const { games: offered, presets, settings = {}, limits } = info;
    const bots = offered.tiles.bots;
    const xbots = offered.xpress ? offered.xpress.bots : [];
    // a newcomer's first opponents are gentle: one beginner bot (then the choice he made)
    const chosen = quickChoice();
    const best = chosen.level && bots.includes(chosen.level) ? chosen.level : bots.includes("beginner") ? "beginner" : bots[0];
    const account = currentAccount();
    const nameInput = h("input", { id: "player-name", maxlength: limits.name, autocomplete: "nickname",
      value: playerName() || (account ? account.name : guestName()), "data-i18n-placeholder": "lobby.name_placeholder" });
    nameInput.addEventListener("input", () => nameInput.classList.remove("invalid"));
    const nameOrAsk = () => {
      const name = nameInput.value.trim().slice(0, limits.name);
      if (!name) {
        nameInput.focus();
        nameInput.classList.add("invalid");
        toast(t("lobby.need_name"), "error");
        return null;
      }
      setPlayerName(name);
      return name;
    };

    // --- play against bots now: up to the preset's players less one
    const opponents = h("select", { id: "quick-opponents" });
    const quickLevel = levelSelect(bots, best, { id: "quick-level" });
    const quickPreset = presetSelect(presets, { id: "quick-preset" });
    const drawOpponents = () => {
      const p = presets[quickPreset.value];
      numberOptions(opponents, Math.max(1, p.min_players - 1), p.max_players - 1, chosen.opponents ?? 1);
    };
    quickPreset.addEventListener("change", drawOpponents);
    drawOpponents();
    const quick = h("section", { class: "card card-hero" },
      h("h2", { i18n: "lobby.quick_title" }),
      h("p", { class: "muted", i18n: "lobby.quick_text" }),
      h("p", {}, h("a", { class: "tutorial-link", id: "tutorial-link", href: "/?tutorial=1", "data-link": true }, t("tutorial.link")),
        " · ", h("a", { class: "tutorial-link", id: "puzzles-link", href: "/puzzles", "data-link": true }, t("puzzle.web.link"))),
      h("div", { class: "form-row" },
        h("label", {}, h("span", { i18n: "lobby.opponents" }), opponents),
        h("label", {}, h("span", { i18n: "lobby.level" }), quickLevel),
        h("label", {}, h("span", { i18n: "lobby.rules" }), quickPreset)),
      h("button", { class: "btn primary big", id: "play-bots", onclick: () => {
        const name = nameOrAsk();
        if (!name) return;
        /** @type {SeatSpec[]} */
        const seats = [{ kind: "human" }];
        for (let i = 0; i < Number(opponents.value); i++) seats.push({ kind: "bot", level: quickLevel.value });
        saveQuickChoice(quickLevel.value, Number(opponents.value));
        create(net, { type: "create", name, rules: quickPreset.value, seats,
          settings: { public: false, hints: true } });
      } }, t("lobby.play_now")));

    // --- create a room: the preset's number of players, a person or a bot in every seat
    const seatList = h("div", { class: "seat-config" });
    const count = h("select", { id: "room-players" });
    const roomPreset = presetSelect(presets, { id: "room-preset" });
    const hints = h("input", { type: "checkbox", id: "room-hints", checked: true });
    // a rated room: the preset as it is (with its clock), no hints, people with accounts
    const rated = h("input", { type: "checkbox", id: "room-rated", disabled: !currentAccount() });
    /** @param {string} p */
    const clocked = (p) => presets[p].turn_seconds != null;
    const showRated = () => {
      if (rated.checked && !clocked(roomPreset.value)) roomPreset.value = "standard";
      for (const opt of roomPreset.options) opt.disabled = rated.checked && !clocked(opt.value);
      hints.disabled = rated.checked;
      if (rated.checked) hints.checked = false;
      spectatorChat.checked = !rated.checked;
      form.el.hidden = rated.checked;
      roomPreset.dispatchEvent(new Event("change"));
    };
    rated.addEventListener("change", showRated);
    const isPublic = h("input", { type: "checkbox", id: "room-public", checked: true });
    // spectators may chat: on in a casual room, off (but allowed) in a rated one
    const spectatorChat = h("input", { type: "checkbox", id: "room-spectator-chat", checked: true });
    /** @type {Partial<import("./types.js").SettingRange>} */
    const graceRange = settings.grace_seconds || {};
    const grace = h("input", { type: "number", id: "room-grace", min: graceRange.min, max: graceRange.max, value: graceRange.default });
    const drawSeats = () => {
      const p = presets[roomPreset.value];
      numberOptions(count, p.min_players, p.max_players, p.max_players);
      const old = [...seatList.querySelectorAll("select")].map((sel) => sel.value);
      seatList.replaceChildren();
      for (let i = 0; i < Number(count.value); i++) {
        const label = h("span", { class: "seat-label" }, i === 0 ? t("lobby.you") : t("lobby.seat_n", { n: i + 1 }));
        if (i === 0) { seatList.append(h("div", { class: "seat-row" }, label, h("span", { class: "muted" }, t("seat.person")))); continue; }
        const sel = h("select", { class: "seat-kind", "aria-label": t("lobby.seat_n", { n: i + 1 }) },
          h("option", { value: "human" }, t("seat.person")),
          bots.map((l) => h("option", { value: `bot:${l}` }, `${t("seat.bot")} · ${t(`bot.${l}`)}`)));
        sel.value = old[i - 1] || "human";
        seatList.append(h("div", { class: "seat-row" }, label, sel));
      }
    };
    count.addEventListener("change", drawSeats);
    roomPreset.addEventListener("change", drawSeats);
    drawSeats();
    const form = rulesForm(presets, roomPreset);
    const createCard = h("section", { class: "card" },
      h("h2", { i18n: "lobby.create_title" }),
      h("div", { class: "form-row" },
        h("label", {}, h("span", { i18n: "lobby.players" }), count),
        h("label", {}, h("span", { i18n: "lobby.rules" }), roomPreset)),
      seatList,
      form.el,
      h("div", { class: "form-row checks" },
        h("label", { class: "check" }, hints, h("span", { i18n: "lobby.hints" })),
        h("label", { class: "check" }, isPublic, h("span", { i18n: "lobby.public" })),
        h("label", { class: "check" }, spectatorChat, h("span", { i18n: "lobby.spectator_chat" })),
        h("label", {}, h("span", { i18n: "lobby.grace" }), grace)),
      h("div", { class: "form-row checks" },
        h("label", { class: "check", title: t("lobby.rated_help") }, rated, h("span", { i18n: "lobby.rated" })),
        h("span", { class: "muted" }, currentAccount() ? t("lobby.rated_help") : h("a", { href: "/account", "data-link": true }, t("lobby.rated_login")))),
      h("button", { class: "btn primary", id: "create-room", onclick: () => {
        const name = nameOrAsk();
        if (!name) return;
        /** @type {SeatSpec[]} */
        const seats = [{ kind: "human" }];
        for (const sel of /** @type {NodeListOf<HTMLSelectElement>} */ (seatList.querySelectorAll("select.seat-kind"))) {
          seats.push(sel.value === "human" ? { kind: "human" } : { kind: "bot", level: sel.value.slice(4) });
        }
        /** @type {Record<string, boolean | number>} */
        const roomSettings = { hints: hints.checked, public: isPublic.checked, rated: rated.checked,
          spectator_chat: spectatorChat.checked };
        if (grace.value !== "") {
          const seconds = checkedNumber(grace);
          if (seconds == null) return;
          roomSettings.grace_seconds = seconds;
        }
        const rules = rated.checked ? roomPreset.value : form.rules();
        if (rules == null) return;
        create(net, { type: "create", name, rules, seats, settings: roomSettings });
      } }, t("lobby.create")));

    // --- Xpress, the dice game
    const xLevel = levelSelect(xbots.filter((b) => b !== "random"), "expert", { id: "xpress-level" });
    const xOpponent = h("select", { id: "xpress-opponent" },
      h("option", { value: "human" }, t("seat.person")),
      xbots.map((l) => h("option", { value: `bot:${l}` }, `${t("seat.bot")} · ${t(`bot.${l}`)}`)));
    const xPublic = h("input", { type: "checkbox", id: "xpress-public", checked: true });
    const xpressCard = h("section", { class: "card card-xpress" },
      h("h2", {}, h("span", { class: "xpress-badge", "aria-hidden": "true" }, "⚄"), " ", t("lobby.xpress_title")),
      h("p", { class: "muted" }, xpressSummary(info.xpress)),
      h("div", { class: "form-row" },
        h("label", {}, h("span", { i18n: "lobby.level" }), xLevel),
        h("button", { class: "btn primary", id: "play-xpress", onclick: () => {
          const name = nameOrAsk();
          if (!name) return;
          create(net, { type: "create", game: "xpress", name, seats: [{ kind: "human" }, { kind: "bot", level: xLevel.value }],
            settings: { public: false, hints: true } });
        } }, t("lobby.xpress_play"))),
      h("div", { class: "form-row checks" },
        h("label", {}, h("span", { i18n: "lobby.xpress_opponent" }), xOpponent),
        h("label", { class: "check" }, xPublic, h("span", { i18n: "lobby.public" })),
        h("button", { class: "btn", id: "create-xpress", onclick: () => {
          const name = nameOrAsk();
          if (!name) return;
          /** @type {SeatSpec} */
          const other = xOpponent.value === "human" ? { kind: "human" } : { kind: "bot", level: xOpponent.value.slice(4) };
          create(net, { type: "create", game: "xpress", name, seats: [{ kind: "human" }, other],
            settings: { public: xPublic.checked, hints: true } });
        } }, t("lobby.xpress_create"))));

    // --- join with a code
    const codeInput = h("input", { id: "join-code", maxlength: limits.code, autocapitalize: "characters",
      "data-i18n-placeholder": "lobby.code_placeholder" });
    const joinCard = h("section", { class: "card" },
      h("h2", { i18n: "lobby.join_title" }),
      h("div", { class: "form-row" }, codeInput,
        h("button", { class: "btn", id: "join-btn", onclick: () => {
          const code = codeInput.value.trim().toUpperCase();
          if (code) navigate(`/r/${code}`);
        } }, t("lobby.join"))));

    // --- open games
    const games = h("section", { class: "card games" }, h("h2", { i18n: "lobby.games_title" }),
      h("div", { id: "game-list" }));
    this.root.replaceChildren(h("div", { class: "lobby" },
      h("section", { class: "card name-card" },
        h("label", { for: "player-name", i18n: "lobby.your_name" }), nameInput,
        h("p", { class: "lobby-links", id: "lobby-links" },
          h("a", { href: "/leaderboard", "data-link": true, id: "lobby-leaderboard" }, t("leaderboard.title")),
          account ? [" · ", h("a", { href: `/players/${encodeURIComponent(account.name)}`, "data-link": true, id: "lobby-profile" }, t("account.profile_link"))] : null)),
      myGamesCard(), quick, quickMatchCard(net), xpressCard, createCard, joinCard, games));
    translate(this.root);
  }
}

// The name offered to a newcomer who has typed none: "Guest 4821", the same in this browser
// until he plays under a name of his own (he may change it in the field).
function guestName() {
  let n = null;
  try { n = localStorage.getItem("rummikub.guest"); } catch { /* storage off */ }
  if (!n || !/^[0-9]{4}$/.test(n)) {
    n = String(1000 + Math.floor(Math.random() * 9000));
    try { localStorage.setItem("rummikub.guest", n); } catch { /* storage off */ }
  }
  return t("lobby.guest_name", { tag: n });
}

// The level and number of bots last chosen for *Play against bots now* (none yet: a newcomer).
/** @returns {{level?: string, opponents?: number}} */
function quickChoice() {
  try { return JSON.parse(localStorage.getItem("rummikub.quick") || "{}") || {}; } catch { return {}; }
}

/**
 * @param {string} level
 * @param {number} opponents
 */
function saveQuickChoice(level, opponents) {
  try { localStorage.setItem("rummikub.quick", JSON.stringify({ level, opponents })); } catch { /* storage off */ }
}

/** @typedef {import("./types.js").LobbyRoom} LobbyRoom */

/** @param {{game: string}} g */
function gameTag(g) {
  return g.game === "xpress" ? h("span", { class: "tag xpress-tag" }, t("lobby.xpress_tag")) : null;
}

// What a room plays, in a line: the preset, the turn time, rounds or target, the rules that
// differ from the usual, hints; then its free seats and how many watch.
/** @param {LobbyRoom} g */
function rulesLine(g) {
  const r = g.rules || {};
  const parts = [];
  if (g.preset) parts.push(t(`preset.${g.preset}`));
  if (g.game !== "xpress") {
    parts.push(r.turn_seconds == null ? t("lobby.no_clock") : t("lobby.seconds_turn", { s: r.turn_seconds }));
    /** @type {Partial<import("./types.js").MatchLength>} */
    const m = r.match || {};
    if (m.target != null) parts.push(t("lobby.to_target", { n: m.target }));
    else if (m.rounds != null) parts.push(t("lobby.n_rounds", { n: m.rounds }));
    if (r.joker_rule === "strict") parts.push(t("lobby.joker_strict"));
    if (r.invalid_play === "penalty") parts.push(t("lobby.invalid_costs", { n: r.invalid_penalty }));
  }
  if (g.hints === false) parts.push(t("lobby.no_hints"));
  return parts.join(" · ");
}

/** @param {LobbyRoom} g */
function roomFacts(g) {
  const free = g.seats.filter((s) => s.kind === "human" && !s.taken).length;
  return h("span", { class: "room-facts muted" },
    h("span", { class: "rules-line" }, rulesLine(g)),
    g.status === "waiting" ? h("span", { class: "free-seats" }, t("lobby.free_seats", { n: free })) : null,
    h("span", { class: "spectators" }, t("lobby.watching", { n: g.spectators || 0 })));
}

/** @param {import("./types.js").Seat[]} seats */
function seatNames(seats) {
  return seats.map((s, i) => s.name || (s.kind === "bot" ? botName(s.bot || "", i) : t("seat.free"))).join(", ");
}

// `most`: the most rooms the server gives in one list.
/**
 * @param {HTMLElement} el
 * @param {import("./types.js").RoomList} data
 * @param {number | undefined} most
 * @param {() => void} showMore
 */
function drawGames(el, data, most, showMore) {
  el.replaceChildren();
  /**
   * @param {string} title
   * @param {HTMLElement[]} rows
   * @param {number} [total]
   */
  const section = (title, rows, total) => {
    el.append(h("h3", {}, title));
    if (!rows.length) el.append(h("p", { class: "muted" }, t("lobby.none")));
    else el.append(h("ul", { class: "game-list" }, rows));
    const more = (total ?? rows.length) - rows.length;
    if (more > 0 && (most == null || rows.length < most)) {
      el.append(h("button", { class: "btn small more", onclick: showMore }, t("lobby.more", { n: more })));
    }
  };
  section(t("lobby.waiting"), data.waiting.map((g) => h("li", { dataset: { code: g.code } },
    h("span", { class: "code" }, g.code), gameTag(g), h("span", { class: "who" }, seatNames(g.seats), roomFacts(g)),
    h("a", { class: "btn small", href: `/r/${g.code}`, "data-link": true }, t("lobby.join")))),
    data.total?.waiting);
  section(t("lobby.live"), data.live.map((g) => h("li", { dataset: { code: g.code } },
    h("span", { class: "code" }, g.code), gameTag(g), h("span", { class: "who" }, seatNames(g.seats), roomFacts(g)),
    h("a", { class: "btn small", href: `/r/${g.code}?watch=1`, "data-link": true }, t("lobby.watch")))),
    data.total?.live);
  section(t("lobby.finished"), data.finished.map((g) => h("li", {},
    h("span", { class: "code" }, g.code), gameTag(g), h("span", { class: "who" }, listedNames(g.players, g.bots).join(", ")),
    h("a", { class: "btn small", href: `/replay/${g.code}`, "data-link": true }, t("lobby.replay")))));
}
