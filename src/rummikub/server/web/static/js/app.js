// @ts-check
// Entry point: language, routing (lobby, room, replay, assistant, puzzles, account, profiles, leaderboard, an address with no page), the connection and its status line.
// Server messages go into the store (store.js); the page of the route renders from it.
import { pickLanguage, setLanguage, language, onLanguage, t, fillLanguageMenu } from "./i18n.js";
import { loadInfo } from "./info.js";
import { Net } from "./net.js";
import { Lobby } from "./lobby.js";
import { RoomPage } from "./room.js";
import { ReplayPage } from "./replay.js";
import { AssistantPage } from "./assistant.js";
import { AccountPage, LeaderboardPage, ProfilePage, currentAccount, drawAccountLink, loadSession, onAccount } from "./account.js";
import { TutorialPage } from "./tutorial.js";
import { PuzzlesPage } from "./puzzles.js";
import { NotFoundPage } from "./notfound.js";
import { connection, receive, subscribe } from "./store.js";
import { h, navigate, toast, saveSeat } from "./util.js";
import { onQueueMessage } from "./ranked.js";
import { colourBlindSwitch } from "./prefs.js";
import { removed, sendMutes } from "./moderation.js";
import { onRematchMessage } from "./rematch.js";

/**
 * A page of a route: it draws itself into the app's element, draws again on `render(what)`
 * (the language or the account changed), and stops on `destroy()`.
 * @typedef {{render(what?: string): void, destroy(): void, onReconnect?(): void}} Page
 */

// the elements of index.html
const app = /** @type {HTMLElement} */ (document.getElementById("app"));
const status = /** @type {HTMLElement} */ (document.getElementById("conn-status"));
/** @type {Page | null} */
let page = null; // the page of the current route: Lobby, RoomPage, ReplayPage or AssistantPage

export const net = new Net({
  onMessage: (msg) => {
    if (msg.type === "joined" && msg.token) saveSeat(msg.room, msg.seat, msg.token);
    if (msg.type === "joined" || msg.type === "watching") sendMutes(net, msg.room, msg.type === "joined" ? msg.seat : null);
    if (msg.type === "removed") removed(msg.room);
    onQueueMessage(msg);
    onRematchMessage(msg);
    receive(msg);
    // a refusal of a request the page made is shown where it was made
    if (msg.type === "error" && (msg.id == null || !String(msg.id).startsWith("c"))) toast(msg.message, "error");
  },
  onOpen: () => { if (page && page.onReconnect) page.onReconnect(); },
  onStatus: connection,
});

// The connection's status, and "Saving…" while the server cannot store moves (the game waits).
// Once connected, the attempts to connect again read as one "connection lost" (no flicker).
let wasOpen = false;
subscribe((s) => {
  if (s.conn === "open") wasOpen = true;
  const conn = s.conn === "connecting" && wasOpen ? "closed" : s.conn;
  const shown = conn !== "open" ? conn : s.saving ? "saving" : "open";
  status.hidden = shown === "open";
  const key = shown === "saving" ? "conn.saving" : shown === "connecting" ? "conn.connecting" : "conn.lost";
  // one short line on a phone (the whole text is its tooltip)
  const short = matchMedia("(max-width: 480px)").matches && shown !== "connecting";
  status.textContent = shown === "open" ? "" : t(short ? `${key}_short` : key);
  status.title = shown === "open" ? "" : t(key);
  status.className = `conn-status ${shown}`;
});

// The server answered the address with a 404 (it has no page there): the page says so, once
// (the addresses the page goes to afterwards are its own)
let missing = document.body.dataset.missing === "1";

function route() {
  if (page) { page.destroy(); page = null; }
  // each page draws into a holder of its own: a page left before its data came (a leaderboard
  // answered after the player went back to the lobby) draws into a holder no longer shown
  const root = h("div", { class: "route-page" });
  app.replaceChildren(root);
  const path = location.pathname;
  const room = path.match(/^\/r\/([A-Za-z0-9]+)$/);
  const replay = path.match(/^\/replay\/([A-Za-z0-9]+)$/);
  if (missing) {
    missing = false;
    delete document.body.dataset.missing;
    page = new NotFoundPage(root);
  }
  else if (room) page = new RoomPage(root, net, room[1].toUpperCase());
  else if (replay) {
    const analyse = new URLSearchParams(location.search).has("analyse");
    page = new ReplayPage(root, replay[1].toUpperCase(), { analyse });
  }
  else if (path === "/assistant") page = new AssistantPage(root);
  else if (path === "/puzzles") page = new PuzzlesPage(root, null);
  else if (/^\/puzzles\/[A-Za-z0-9-]+$/.test(path)) page = new PuzzlesPage(root, path.slice("/puzzles/".length));
  else if (path === "/account") page = new AccountPage(root);
  else if (path === "/leaderboard") page = new LeaderboardPage(root);
  else if (/^\/players\/[^/]+$/.test(path)) page = new ProfilePage(root, decodeURIComponent(path.slice("/players/".length)));
  else if (path !== "/") page = new NotFoundPage(root);
  else if (new URLSearchParams(location.search).has("tutorial")) page = new TutorialPage(root);
  else page = new Lobby(root, net);
}

document.addEventListener("click", (ev) => {
  const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (ev.target).closest("a[data-link]"));
  if (a && a.origin === location.origin) {
    ev.preventDefault();
    navigate(a.pathname + a.search);
  }
});
window.addEventListener("popstate", route);
window.addEventListener("rummikub:route", route);

const navAccount = /** @type {HTMLElement} */ (document.getElementById("nav-account"));
const select = /** @type {HTMLSelectElement} */ (document.getElementById("lang-select"));
/** @type {(() => void) | null} */
let wordSwitch = null; // words the colour-blind switch in the page's language
fillLanguageMenu(select);
select.addEventListener("change", () => {
  // an address that names a language (?lang=xx) names the one chosen now
  const url = new URL(location.href);
  if (url.searchParams.has("lang")) {
    url.searchParams.set("lang", select.value);
    history.replaceState(history.state, "", url);
  }
  setLanguage(select.value);
});
onLanguage((lang) => {
  select.value = lang;
  document.title = t("title");
  if (wordSwitch) wordSwitch();
  drawAccountLink(navAccount);
  if (page) page.render("language");
});

await Promise.all([setLanguage(pickLanguage()), loadInfo().catch(() => null), loadSession()]);
// logging in or out: the connection starts again under the new session (the room page takes
// its seat again), and the page shows what the account has
let shownAccount = currentAccount();
onAccount((a) => {
  drawAccountLink(navAccount);
  if ((a && a.id) === (shownAccount && shownAccount.id)) return;
  shownAccount = a;
  if (net.ws) net.reconnect();
  if (page && page.render) page.render("account");
});
select.value = language();
wordSwitch = colourBlindSwitch(/** @type {HTMLElement} */ (document.getElementById("cb-switch")));
net.connect();
route();
