// The lobby: play against bots now, create a room, join with a code, open games to watch.
// The choices offered (players, opponents, the grace period) come from the server's /api/info.
import { t, translate } from "./i18n.js";
import { loadInfo } from "./info.js";
import { getState, subscribe, update } from "./store.js";
import { h, toast, navigate, saveSeat, playerName, setPlayerName, getJSON } from "./util.js";

// How many rooms of each list the lobby asks for at first and for each "show more".
const PAGE = 50;
const REFRESH_MS = 5000;

function levelSelect(levels, value, attrs = {}) {
  return h("select", attrs, levels.map((l) => h("option", { value: l, selected: l === value }, t(`bot.${l}`))));
}

function presetSelect(presets, attrs = {}) {
  return h("select", attrs, Object.keys(presets).map((p) =>
    h("option", { value: p, selected: p === "standard" }, t(`preset.${p}`))));
}

// Fill `select` with the numbers lo..hi, keeping its choice (or `fallback`) within them.
function numberOptions(select, lo, hi, fallback) {
  const old = Number(select.value || fallback);
  select.replaceChildren(...Array.from({ length: Math.max(0, hi - lo + 1) }, (_, k) => h("option", { value: lo + k }, String(lo + k))));
  select.value = String(Math.max(lo, Math.min(hi, old)));
}

async function create(net, msg) {
  try {
    const reply = await net.request(msg);
    saveSeat(reply.room, reply.seat, reply.token);
    navigate(`/r/${reply.room}`);
  } catch (err) {
    toast(err.message || t("error.generic"), "error");
  }
}

export class Lobby {
  constructor(root, net) {
    this.root = root;
    this.net = net;
    this.built = false;
    this.shownRooms = null;
    this.unsubscribe = subscribe((s, what) => this.render(what));
    update((s) => { s.lobby = { rooms: null, shown: PAGE }; });
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    loadInfo().catch(() => {});
    this.render();
  }

  destroy() {
    clearInterval(this.timer);
    this.unsubscribe();
  }

  async refresh() {
    try {
      const rooms = await getJSON(`/api/rooms?limit=${getState().lobby.shown}`);
      update((s) => { s.lobby.rooms = rooms; });
    } catch { /* offline */ }
  }

  render(what) {
    const s = getState();
    if (!s.info) return;
    if (!this.built || what === "language") {
      this.build(s.info);
      this.built = true;
      this.shownRooms = null;
      this.refresh();
    }
    if (s.lobby.rooms && s.lobby.rooms !== this.shownRooms) {
      this.shownRooms = s.lobby.rooms;
      const most = (s.info.limits || {}).rooms;
      drawGames(this.root.querySelector("#game-list"), s.lobby.rooms, most, () => {
        update((st) => { st.lobby.shown = Math.min(most ?? Infinity, st.lobby.shown + PAGE); });
        this.refresh();
      });
    }
  }

  build(info) {
    const net = this.net;
    const { bots, presets, xpress_bots: xbots = [], settings = {}, limits = {} } = info;
    const best = bots.includes("greedy") ? "greedy" : bots[0];
    const nameInput = h("input", { id: "player-name", maxlength: limits.name, autocomplete: "nickname",
      value: playerName(), "data-i18n-placeholder": "lobby.name_placeholder" });
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
      numberOptions(opponents, Math.max(1, p.min_players - 1), p.max_players - 1, p.max_players - 1);
    };
    quickPreset.addEventListener("change", drawOpponents);
    drawOpponents();
    const quick = h("section", { class: "card card-hero" },
      h("h2", { i18n: "lobby.quick_title" }),
      h("p", { class: "muted", i18n: "lobby.quick_text" }),
      h("div", { class: "form-row" },
        h("label", {}, h("span", { i18n: "lobby.opponents" }), opponents),
        h("label", {}, h("span", { i18n: "lobby.level" }), quickLevel),
        h("label", {}, h("span", { i18n: "lobby.rules" }), quickPreset)),
      h("button", { class: "btn primary big", id: "play-bots", onclick: () => {
        const name = nameOrAsk();
        if (!name) return;
        const seats = [{ kind: "human" }];
        for (let i = 0; i < Number(opponents.value); i++) seats.push({ kind: "bot", level: quickLevel.value });
        create(net, { type: "create", name, rules: quickPreset.value, seats,
          settings: { public: false, hints: true } });
      } }, t("lobby.play_now")));

    // --- create a room: the preset's number of players, a person or a bot in every seat
    const seatList = h("div", { class: "seat-config" });
    const count = h("select", { id: "room-players" });
    const roomPreset = presetSelect(presets, { id: "room-preset" });
    const hints = h("input", { type: "checkbox", id: "room-hints", checked: true });
    const isPublic = h("input", { type: "checkbox", id: "room-public", checked: true });
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
    const clamp = (v) => Math.max(graceRange.min ?? v, Math.min(graceRange.max ?? v, v));
    const createCard = h("section", { class: "card" },
      h("h2", { i18n: "lobby.create_title" }),
      h("div", { class: "form-row" },
        h("label", {}, h("span", { i18n: "lobby.players" }), count),
        h("label", {}, h("span", { i18n: "lobby.rules" }), roomPreset)),
      seatList,
      h("div", { class: "form-row checks" },
        h("label", { class: "check" }, hints, h("span", { i18n: "lobby.hints" })),
        h("label", { class: "check" }, isPublic, h("span", { i18n: "lobby.public" })),
        h("label", {}, h("span", { i18n: "lobby.grace" }), grace)),
      h("button", { class: "btn primary", id: "create-room", onclick: () => {
        const name = nameOrAsk();
        if (!name) return;
        const seats = [{ kind: "human" }];
        for (const sel of seatList.querySelectorAll("select.seat-kind")) {
          seats.push(sel.value === "human" ? { kind: "human" } : { kind: "bot", level: sel.value.slice(4) });
        }
        const roomSettings = { hints: hints.checked, public: isPublic.checked };
        if (grace.value !== "") roomSettings.grace_seconds = clamp(Number(grace.value) || 0);
        create(net, { type: "create", name, rules: roomPreset.value, seats, settings: roomSettings });
      } }, t("lobby.create")));

    // --- Xpress, the dice game
    const xLevel = levelSelect(xbots.filter((b) => b !== "random"), "expert", { id: "xpress-level" });
    const xOpponent = h("select", { id: "xpress-opponent" },
      h("option", { value: "human" }, t("seat.person")),
      xbots.map((l) => h("option", { value: `bot:${l}` }, `${t("seat.bot")} · ${t(`bot.${l}`)}`)));
    const xPublic = h("input", { type: "checkbox", id: "xpress-public", checked: true });
    const xpressCard = h("section", { class: "card card-xpress" },
      h("h2", {}, h("span", { class: "xpress-badge", "aria-hidden": "true" }, "⚄"), " ", t("lobby.xpress_title")),
      h("p", { class: "muted", i18n: "lobby.xpress_text" }),
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
        h("label", { for: "player-name", i18n: "lobby.your_name" }), nameInput),
      quick, xpressCard, createCard, joinCard, games));
    translate(this.root);
  }
}

function gameTag(g) {
  return g.game === "xpress" ? h("span", { class: "tag xpress-tag" }, t("lobby.xpress_tag")) : null;
}

function seatNames(seats) {
  return seats.map((s) => s.name || (s.kind === "bot" ? t(`bot.${s.bot}`) : t("seat.free"))).join(", ");
}

// `most`: the most rooms the server gives in one list.
function drawGames(el, data, most, showMore) {
  el.replaceChildren();
  const section = (title, rows, total) => {
    el.append(h("h3", {}, title));
    if (!rows.length) el.append(h("p", { class: "muted" }, t("lobby.none")));
    else el.append(h("ul", { class: "game-list" }, rows));
    const more = (total ?? rows.length) - rows.length;
    if (more > 0 && (most == null || rows.length < most)) {
      el.append(h("button", { class: "btn small more", onclick: showMore }, t("lobby.more", { n: more })));
    }
  };
  section(t("lobby.waiting"), data.waiting.map((g) => h("li", {},
    h("span", { class: "code" }, g.code), gameTag(g), h("span", { class: "who" }, seatNames(g.seats)),
    h("a", { class: "btn small", href: `/r/${g.code}`, "data-link": true }, t("lobby.join")))),
    data.total?.waiting);
  section(t("lobby.live"), data.live.map((g) => h("li", {},
    h("span", { class: "code" }, g.code), gameTag(g), h("span", { class: "who" }, seatNames(g.seats)),
    h("a", { class: "btn small", href: `/r/${g.code}?watch=1`, "data-link": true }, t("lobby.watch")))),
    data.total?.live);
  section(t("lobby.finished"), data.finished.map((g) => h("li", {},
    h("span", { class: "code" }, g.code), gameTag(g), h("span", { class: "who" }, g.players.join(", ")),
    h("a", { class: "btn small", href: `/replay/${g.code}`, "data-link": true }, t("lobby.replay")))));
}
