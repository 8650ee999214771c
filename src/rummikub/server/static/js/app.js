// Entry point: language, routing (lobby, room, replay) and the connection.
import { pickLanguage, setLanguage, language, onLanguage, t } from "./i18n.js";
import { Net } from "./net.js";
import { renderLobby } from "./lobby.js";
import { GameView } from "./game.js";
import { XpressView } from "./xpress.js";
import { renderReplay } from "./replay.js";
import { navigate, toast, getJSON } from "./util.js";

const app = document.getElementById("app");
const status = document.getElementById("conn-status");
let view = null; // the GameView while in a room
let rerender = null;

export const net = new Net({
  onMessage: (msg) => {
    if (msg.type === "state") showSaving(Boolean(msg.saving));
    if (view) view.onMessage(msg);
    else if (msg.type === "error" && msg.id == null) toast(msg.message, "error");
  },
  onOpen: () => { if (view) view.onReconnect(); },
  onStatus: (s) => {
    saving = false;
    status.hidden = s === "open";
    status.textContent = s === "open" ? "" : t(s === "connecting" ? "conn.connecting" : "conn.lost");
    status.className = `conn-status ${s}`;
  },
});

// The server cannot store moves for a moment: the game waits, and the player is told.
let saving = false;
function showSaving(on) {
  if (on === saving) return;
  saving = on;
  status.hidden = !on;
  status.textContent = on ? t("conn.saving") : "";
  status.className = `conn-status ${on ? "saving" : "open"}`;
}

let routing = 0;

// Which game a room plays: the tile game unless the server says Xpress.
async function roomGame(code) {
  try { return (await getJSON(`/api/rooms/${code}`)).game || "tiles"; } catch { return "tiles"; }
}

async function route() {
  const path = location.pathname;
  const ticket = ++routing;
  if (view) { view.destroy(); view = null; }
  app.innerHTML = "";
  const room = path.match(/^\/r\/([A-Za-z0-9]+)/);
  const replay = path.match(/^\/replay\/([A-Za-z0-9]+)/);
  if (room) {
    const code = room[1].toUpperCase();
    const kind = await roomGame(code);
    if (ticket !== routing) return;
    const View = kind === "xpress" ? XpressView : GameView;
    view = new View(app, net, code, history.state || {});
    rerender = () => view && view.render();
  } else if (replay) {
    rerender = () => renderReplay(app, replay[1].toUpperCase());
    rerender();
  } else {
    rerender = () => renderLobby(app, net);
    rerender();
  }
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest("a[data-link]");
  if (a && a.origin === location.origin) {
    ev.preventDefault();
    navigate(a.pathname + a.search);
  }
});
window.addEventListener("popstate", route);
window.addEventListener("rummikub:route", route);

const select = document.getElementById("lang-select");
select.addEventListener("change", () => setLanguage(select.value));
onLanguage((lang) => {
  select.value = lang;
  document.title = t("title");
  if (rerender) rerender();
});

await setLanguage(pickLanguage());
select.value = language();
net.connect();
route();
