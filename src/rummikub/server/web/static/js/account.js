// @ts-check
// Accounts (optional: a guest plays without one): /account to sign up, log in and manage the
// account; /players/NAME a player's profile with his rating over time; /leaderboard the best
// ratings, of all time or of the last 30 days. The session is an HttpOnly cookie the server
// sets; requests that change something carry the session's CSRF token.
import { errorText, formatDate, t } from "./i18n.js";
import { h, getJSON, listedNames, toast } from "./util.js";

/** @typedef {{id: number, name: string}} Account */

/** @type {{account: Account | null, csrf: string | null, playing: import("./types.js").AccountGame[], puzzles: import("./types.js").AccountPuzzles | null}} */
let session = { account: null, csrf: null, playing: [], puzzles: null };
/** @type {Set<(account: Account | null) => void>} */
const listeners = new Set();

export function currentAccount() { return session.account; }
// The unfinished games the account holds a seat in (GET /api/account).
export function sessionGames() { return session.playing || []; }
/** @param {(account: Account | null) => void} fn */
export function onAccount(fn) { listeners.add(fn); fn(session.account); }
// The account's puzzle rating and counts (GET /api/account; null: a guest, or not read yet).
export function accountPuzzles() { return session.puzzles; }
// After an attempt the server rated: the account's puzzles as they are now.
/** @param {import("./types.js").AccountPuzzles} puzzles */
export function setAccountPuzzles(puzzles) { session.puzzles = puzzles; }
// The header a request that changes the account carries (none for a guest).
/** @returns {Record<string, string>} */
export function csrfHeader() { return session.csrf ? { "X-CSRF-Token": session.csrf } : {}; }

/** @param {import("./types.js").SessionJson} s */
function setSession(s) {
  const puzzles = s.account && s.account.id === session.account?.id ? session.puzzles : null;
  session = { account: s.account || null, csrf: s.csrf || null, playing: s.playing || [], puzzles: s.puzzles || puzzles };
  for (const fn of listeners) fn(session.account);
}

// The seats this browser took as a guest (their tokens): signing up or logging in makes the
// games the account's.
function guestClaims() {
  /** @type {{room: string, token: string}[]} */
  const out = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    const m = key && key.match(/^rummikub\.seat\.([A-Z0-9]+)$/);
    if (!m) continue;
    try {
      const saved = JSON.parse(localStorage.getItem(key) ?? "null");
      if (saved && saved.token) out.push({ room: m[1], token: saved.token });
    } catch { /* not ours */ }
  }
  return out.slice(-50);
}

/** @param {import("./types.js").SessionJson} reply */
function claimedToast(reply) {
  if (reply.claimed) toast(t("account.claimed", { n: reply.claimed }));
}

export async function loadSession() {
  try { setSession(await getJSON("/api/account")); } catch { setSession({}); }
}

/**
 * @param {string} path
 * @param {Record<string, unknown>} [body]
 * @returns {Promise<import("./types.js").SessionJson>}
 */
async function post(path, body) {
  const headers = { "Content-Type": "application/json", ...csrfHeader() };
  const res = await fetch(path, { method: "POST", headers, body: JSON.stringify(body || {}) });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw data;
  return data;
}

/**
 * @param {string} id
 * @param {string} key
 * @param {string} [type]
 * @param {import("./util.js").Attrs} [extra]
 */
const field = (id, key, type = "text", extra = {}) =>
  h("label", {}, h("span", { i18n: key }), h("input", { id, type, required: true, ...extra }));

export class AccountPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.error = null;
    this.draw = () => this.build();
    listeners.add(this.draw);
    this.build();
  }

  destroy() { listeners.delete(this.draw); }
  /** @param {string} [what] */
  render(what) { if (what === "language") this.build(); }

  /**
   * @param {HTMLFormElement} form
   * @param {() => Promise<void>} action
   */
  async run(form, action) {
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
    button.disabled = true;
    try {
      await action();
    } catch (e) {
      const err = /** @type {{code?: string, params?: import("./types.js").Params, reason?: string}} */ (e);
      this.showError(form, err.code ? errorText({ ...err, code: err.code }) : t("error.generic"));
    } finally {
      button.disabled = false;
    }
  }

  /**
   * @param {HTMLFormElement} form
   * @param {string} text
   */
  showError(form, text) {
    const out = /** @type {HTMLElement} */ (form.querySelector(".form-error"));
    out.textContent = text;
    out.hidden = false;
  }

  /** @param {string} id */
  value(id) { return /** @type {HTMLInputElement} */ (this.root.querySelector(`#${id}`)).value; }

  build() {
    const a = session.account;
    const page = h("div", { class: "lobby account-page" });
    if (!a) {
      const signup = h("form", { class: "card", id: "signup-form", onsubmit: (ev) => {
        ev.preventDefault();
        this.run(signup, async () => {
          const reply = await post("/api/account/signup", { name: this.value("signup-name"), password: this.value("signup-password"), claim: guestClaims() });
          setSession(reply);
          toast(t("account.welcome", { name: /** @type {Account} */ (session.account).name })); // a sign-up's answer has it
          claimedToast(reply);
        });
      } },
        h("h2", { i18n: "account.signup_title" }),
        h("p", { class: "muted", i18n: "account.signup_text" }),
        h("div", { class: "form-row" },
          field("signup-name", "account.name", "text", { autocomplete: "username", maxlength: 20 }),
          field("signup-password", "account.password", "password", { autocomplete: "new-password", minlength: 8 })),
        h("p", { class: "form-error", role: "alert", hidden: true }),
        h("button", { class: "btn primary", type: "submit", id: "signup-submit" }, t("account.signup")));
      const login = h("form", { class: "card", id: "login-form", onsubmit: (ev) => {
        ev.preventDefault();
        this.run(login, async () => {
          const reply = await post("/api/account/login", { name: this.value("login-name"), password: this.value("login-password"), claim: guestClaims() });
          setSession(reply);
          claimedToast(reply);
        });
      } },
        h("h2", { i18n: "account.login_title" }),
        h("div", { class: "form-row" },
          field("login-name", "account.name", "text", { autocomplete: "username" }),
          field("login-password", "account.password", "password", { autocomplete: "current-password" })),
        h("p", { class: "form-error", role: "alert", hidden: true }),
        h("button", { class: "btn primary", type: "submit", id: "login-submit" }, t("account.login")));
      page.append(signup, login);
    } else {
      const me = h("section", { class: "card card-hero", id: "account-card" },
        h("h2", {}, t("account.logged_in_as", { name: a.name })),
        h("p", {}, h("a", { href: `/players/${encodeURIComponent(a.name)}`, "data-link": true, id: "my-profile" }, t("account.profile_link"))),
        h("div", { class: "form-row" },
          h("button", { class: "btn", id: "logout", onclick: async () => { setSession(await post("/api/account/logout")); } }, t("account.logout")),
          h("button", { class: "btn", id: "logout-all", onclick: async () => {
            setSession(await post("/api/account/logout-all"));
            toast(t("account.logged_out_all"));
          } }, t("account.logout_all"))));
      const password = h("form", { class: "card", id: "password-form", onsubmit: (ev) => {
        ev.preventDefault();
        this.run(password, async () => {
          setSession(await post("/api/account/password", { old: this.value("old-password"), new: this.value("new-password") }));
          toast(t("account.password_changed"));
        });
      } },
        h("h2", { i18n: "account.password_title" }),
        h("div", { class: "form-row" },
          field("old-password", "account.old_password", "password", { autocomplete: "current-password" }),
          field("new-password", "account.new_password", "password", { autocomplete: "new-password", minlength: 8 })),
        h("p", { class: "form-error", role: "alert", hidden: true }),
        h("button", { class: "btn", type: "submit" }, t("account.change_password")));
      const remove = h("form", { class: "card", id: "delete-form", onsubmit: (ev) => {
        ev.preventDefault();
        if (!confirm(t("account.delete_confirm"))) return;
        this.run(remove, async () => {
          setSession(await post("/api/account/delete", { password: this.value("delete-password") }));
          toast(t("account.deleted"));
        });
      } },
        h("h2", { i18n: "account.delete_title" }),
        h("p", { class: "muted", i18n: "account.delete_text" }),
        h("div", { class: "form-row" }, field("delete-password", "account.password", "password", { autocomplete: "current-password" })),
        h("p", { class: "form-error", role: "alert", hidden: true }),
        h("button", { class: "btn", type: "submit" }, t("account.delete")));
      page.append(me, password, remove);
    }
    page.append(h("p", { class: "account-links" }, h("a", { href: "/leaderboard", "data-link": true }, t("account.leaderboard_link"))));
    this.root.replaceChildren(page);
  }
}

// The rating after each rated game (or puzzle) as a line (the newest on the right).
/**
 * @param {import("./types.js").RatingPoint[]} history
 * @param {string} [empty] what stands in its place before there are two points
 * @param {string} [id] the id of that text
 */
function ratingGraph(history, empty = "profile.no_graph", id = "no-graph") {
  if (history.length < 2) return h("p", { class: "muted", id }, t(empty));
  const w = 600, ht = 160, pad = 8;
  const ys = history.map((p) => p.rating);
  const lo = Math.min(...ys), hi = Math.max(...ys), span = Math.max(1, hi - lo);
  const pts = ys.map((y, i) => `${(pad + (i * (w - 2 * pad)) / (ys.length - 1)).toFixed(1)},${(ht - pad - ((y - lo) * (ht - 2 * pad)) / span).toFixed(1)}`);
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${ht}`);
  svg.setAttribute("class", "rating-graph");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("profile.graph_label", { from: ys[0], to: ys[ys.length - 1] }));
  const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
  line.setAttribute("points", pts.join(" "));
  svg.append(line);
  return svg;
}

export class ProfilePage {
  /**
   * @param {HTMLElement} root
   * @param {string} name
   */
  constructor(root, name) {
    this.root = root;
    this.name = name;
    const q = new URLSearchParams(location.search);
    this.offset = Math.max(0, Number(q.get("offset")) || 0);
    this.puzzleOffset = Math.max(0, Number(q.get("puzzles")) || 0);
    /** @type {import("./types.js").PlayerProfile | null} */
    this.data = null;
    /** @type {{message?: string} | null} */
    this.error = null;
    this.load();
  }

  destroy() {}
  /** @param {string} [what] */
  render(what) { if (what === "language") this.build(); }

  async load() {
    const q = `offset=${this.offset}&limit=${RECENT}&puzzle_offset=${this.puzzleOffset}&puzzle_limit=${RECENT}`;
    try { this.data = await getJSON(`/api/players/${encodeURIComponent(this.name)}?${q}`); } catch (err) { this.error = /** @type {{message?: string}} */ (err); }
    this.build();
  }

  build() {
    const page = h("div", { class: "lobby profile-page" });
    if (this.error) {
      page.append(h("section", { class: "card" }, h("p", { id: "profile-error" }, this.error.message || t("error.generic"))));
    } else if (this.data) {
      const d = this.data;
      for (const game of Object.keys(d.games)) {
        const g = d.games[game];
        page.append(h("section", { class: "card", dataset: { game } },
          h("h2", {}, `${d.name} · ${t(`profile.game_${game}`)}`),
          h("p", { class: "profile-rating" }, t("profile.rating", { rating: g.rating })),
          h("p", { class: "muted" }, t("profile.games", { games: g.games, wins: g.wins })),
          ratingGraph(g.history)));
      }
      if (d.puzzles) page.append(this.puzzles(d.puzzles));
      page.append(this.recent(d.recent || []));
    }
    page.append(h("p", { class: "account-links" }, h("a", { href: "/leaderboard", "data-link": true }, t("account.leaderboard_link"))));
    this.root.replaceChildren(page);
  }

  // Links to the newer and older page of a list of the profile (its offset in the address's
  // "offset" or "puzzles"; the other list's stays).
  /**
   * @param {"offset" | "puzzles"} param
   * @param {number} offset
   * @param {number} shown how many lines this page has
   * @param {string} id
   */
  pagers(param, offset, shown, id) {
    /**
     * @param {number} to
     * @param {string} key
     * @param {string} which
     */
    const pager = (to, key, which) => {
      const q = { offset: this.offset, puzzles: this.puzzleOffset, [param]: to };
      const href = `/players/${encodeURIComponent(this.name)}?offset=${q.offset}&puzzles=${q.puzzles}`;
      return h("a", { class: "btn small", id: `${id}-${which}`, href, "data-link": true }, t(key));
    };
    return h("div", { class: "form-row" },
      offset > 0 ? pager(Math.max(0, offset - RECENT), "profile.newer", "newer") : null,
      shown === RECENT ? pager(offset + RECENT, "profile.older", "older") : null);
  }

  /** @param {import("./types.js").AccountGame[]} games */
  recent(games) {
    return h("section", { class: "card recent-games", id: "recent-games" },
      h("h2", {}, t("profile.recent")),
      games.length ? h("ul", { class: "game-list" }, games.map((g) => recentLine(g, this.name)))
        : h("p", { class: "muted" }, t("profile.none")),
      this.pagers("offset", this.offset, games.length, "recent"));
  }

  // The Puzzles card: the puzzle rating, how many solved of those attempted, the rating over
  // the rated attempts, and a page of attempts linking to their puzzles.
  /** @param {import("./types.js").ProfilePuzzles} p */
  puzzles(p) {
    return h("section", { class: "card recent-games profile-puzzles", id: "profile-puzzles" },
      h("h2", {}, `${/** @type {import("./types.js").PlayerProfile} */ (this.data).name} · ${t("profile.puzzles")}`),
      h("p", { class: "profile-rating", id: "profile-puzzle-rating" }, t("profile.rating", { rating: p.rating })),
      h("p", { class: "muted", id: "profile-puzzle-counts" }, t("profile.puzzles_solved", { solved: p.solved, attempted: p.attempted })),
      ratingGraph(p.history, "profile.puzzle_no_graph", "no-puzzle-graph"),
      p.recent.length ? h("ul", { class: "game-list" }, p.recent.map(puzzleLine))
        : h("p", { class: "muted" }, t("profile.puzzle_none")),
      this.pagers("puzzles", this.puzzleOffset, p.recent.length, "puzzles"));
  }
}

// One of the player's puzzle attempts: the puzzle (a link to it), when, how it ended, and his
// puzzle rating after it.
/** @param {import("./types.js").PuzzleLine} a */
function puzzleLine(a) {
  const when = formatDate(new Date(a.at * 1000), { dateStyle: "medium" });
  const result = a.solved ? "profile.puzzle_solved" : `profile.puzzle_${a.how === "answer" ? "failed" : a.how}`;
  return h("li", { class: "recent-game", dataset: { puzzle: a.id } },
    h("div", { class: "recent-text" },
      h("a", { class: "who", href: `/puzzles/${encodeURIComponent(a.id)}`, "data-link": true }, t("profile.puzzle", { id: a.id })),
      h("span", { class: "recent-facts muted" }, when, " · ", h("strong", { class: "recent-result" }, t(result)), " · ",
        t("profile.rating", { rating: a.rating }))));
}

const RECENT = 20; // finished games per page of a profile

// One of the player's finished games, with links to its replay and analysis.
/**
 * @param {import("./types.js").AccountGame} g
 * @param {string} name
 */
function recentLine(g, name) {
  const players = listedNames(g.players, g.bots);
  const me = players[g.seat] || name;
  const others = players.filter((_, i) => i !== g.seat).join(", ");
  const result = g.won == null ? "" : t(g.won ? "profile.won" : "profile.lost");
  const when = formatDate(new Date(g.at * 1000), { dateStyle: "medium" });
  // the players on a line of their own, then the date, game and result, then the links: each
  // line as wide as the row (the links go under the text where they do not fit beside it)
  return h("li", { class: "recent-game", dataset: { code: g.room } },
    h("div", { class: "recent-text" },
      h("span", { class: "who" }, `${me} – ${others}`),
      h("span", { class: "recent-facts muted" },
        h("span", { class: "code" }, g.room), " · ",
        [when, t(`profile.game_${g.game}`), t(g.rated ? "profile.rated" : "profile.casual")].join(" · "),
        result ? [" · ", h("strong", { class: "recent-result" }, result)] : null)),
    h("div", { class: "recent-links" },
      h("a", { class: "btn small", href: `/replay/${g.room}`, "data-link": true }, t("profile.replay")),
      g.game === "tiles" ? h("a", { class: "btn small", href: `/replay/${g.room}?analyse=1`, "data-link": true }, t("profile.analysis")) : null));
}


const PAGE = 50;

export class LeaderboardPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    const q = new URLSearchParams(location.search);
    this.game = q.get("game") === "xpress" ? "xpress" : "tiles";
    this.period = q.get("period") === "month" ? "month" : "all";
    this.offset = Math.max(0, Number(q.get("offset")) || 0);
    /** @type {import("./types.js").Leaderboard | null} */
    this.data = null;
    this.load();
  }

  destroy() {}
  /** @param {string} [what] */
  render(what) { if (what === "language") this.build(); }

  async load() {
    const q = `game=${this.game}&period=${this.period}&offset=${this.offset}&limit=${PAGE}`;
    try { this.data = await getJSON(`/api/leaderboard?${q}`); } catch (err) { toast(/** @type {{message?: string}} */ (err).message || t("error.generic"), "error"); }
    this.build();
  }

  /**
   * @param {{game?: string, period?: string, offset?: number}} changes
   * @param {string} label
   * @param {string} id
   */
  link(changes, label, id) {
    const p = { game: this.game, period: this.period, offset: this.offset, ...changes };
    // a filter already in force (its game or period) is marked as the current one
    const current = (changes.game != null || changes.period != null) && p.game === this.game && p.period === this.period;
    return h("a", { class: "btn small" + (current ? " current" : ""), id, href: `/leaderboard?game=${p.game}&period=${p.period}&offset=${p.offset}`,
      "data-link": true, "aria-current": current ? "true" : null }, label);
  }

  build() {
    const rows = (this.data && this.data.players) || [];
    const table = rows.length
      ? h("table", { class: "leaderboard" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", { i18n: "leaderboard.player" }), h("th", { i18n: "leaderboard.rating" }), h("th", { i18n: "leaderboard.games" }))),
        h("tbody", {}, rows.map((r) => h("tr", {},
          h("td", {}, String(r.place)),
          h("td", {}, h("a", { href: `/players/${encodeURIComponent(r.name)}`, "data-link": true }, r.name)),
          h("td", {}, String(r.rating)), h("td", {}, String(r.games))))))
      : h("p", { class: "muted", id: "leaderboard-empty" }, t("leaderboard.empty"));
    const card = h("section", { class: "card leaderboard-card" },
      h("h2", { i18n: "leaderboard.title" }),
      h("div", { class: "form-row" },
        this.link({ game: "tiles", offset: 0 }, t("profile.game_tiles"), "lb-tiles"),
        this.link({ game: "xpress", offset: 0 }, t("profile.game_xpress"), "lb-xpress"),
        this.link({ period: "all", offset: 0 }, t("leaderboard.all"), "lb-all"),
        this.link({ period: "month", offset: 0 }, t("leaderboard.month"), "lb-month")),
      table,
      h("div", { class: "form-row" },
        this.offset > 0 ? this.link({ offset: Math.max(0, this.offset - PAGE) }, t("leaderboard.previous"), "lb-prev") : null,
        rows.length === PAGE ? this.link({ offset: this.offset + PAGE }, t("leaderboard.next"), "lb-next") : null));
    this.root.replaceChildren(h("div", { class: "lobby" }, card));
  }
}

// The top bar's account link: the player's name once logged in, else "Log in".
/** @param {HTMLElement} el */
export function drawAccountLink(el) {
  const a = session.account;
  el.textContent = a ? a.name : t("account.link");
  el.classList.toggle("logged-in", !!a);
}
