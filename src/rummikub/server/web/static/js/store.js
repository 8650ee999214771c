// @ts-check
// The client's state, in one object. It changes only through the functions below: `receive`
// (a message from the server), `connection`, `enterRoom`/`leaveRoom` (routing), `update` (what
// the player does in the page) and `setDraft` (typing). Every change but typing tells the
// subscribers, which render from the state; views keep no copy of the server's state.
import { startTurn, mergeChecked, orderRack, restoreSaved, saveable } from "./turn.js";
import { SHOW_MS, markTurn, tableMarks } from "./follow.js";

/** @typedef {import("./types.js").ServerMsg} ServerMsg */

/**
 * The replay page's game (replay.js): the record, the position shown, the analysis.
 * @typedef {object} ReplayState
 * @property {string} code
 * @property {import("./types.js").GameRecord | null} record
 * @property {string | null} error why there is no record
 * @property {number} index the position shown
 * @property {import("./review.js").Analysis | {error: string, turns?: undefined} | null} analysis
 * @property {boolean} analysing
 * @property {{done: number, total: number} | null} progress
 * @property {boolean} better the better move is shown instead of the one played
 */

/**
 * The last move of another player (follow.js): `key` the table it left (lastKey: it stays the
 * last move while the table is unchanged, through the draws of the players after it), the
 * mover's seat, the marks per set and piece, `until` when its highlight ends, `fly` its pieces
 * still to fly.
 * @typedef {{key: string, seat: number, marks: import("./follow.js").Marks, until: number, fly: boolean}} LastMove
 */

/**
 * The client's state (see each field below).
 * @typedef {object} State
 * @property {import("./net.js").ConnStatus} conn
 * @property {boolean} saving
 * @property {import("./types.js").Info | null} info
 * @property {{rooms: import("./types.js").RoomList | null, shown: number}} lobby
 * @property {ReplayState | null} replay
 * @property {{code: string, game: import("./types.js").GameName, mode: "player" | "watch" | "prompt" | "missing" | null} | null} room
 * @property {number | null} seat
 * @property {import("./types.js").StateMsg | null} view
 * @property {{deadline: number | null, pause: number | null}} clock
 * @property {import("./types.js").ChatLine[]} chat
 * @property {number} unread
 * @property {{chat: string}} draft
 * @property {import("./turn.js").Turn | null} turn
 * @property {string | null} selection
 * @property {Set<number>} marked
 * @property {import("./types.js").CheckedMsg | null} check
 * @property {number} checkSeq
 * @property {import("./types.js").HintMsg | {loading: true} | null} hint
 * @property {import("./types.js").RatingChange[] | null} rated
 * @property {boolean} busy
 * @property {Set<number>} rolling
 * @property {number | null} lastRoll
 * @property {LastMove | null} last
 * @property {{sideTab: "log" | "chat" | "rules", sort: string, order: string[] | null, confirmDraw: boolean}} ui
 */

/** What changed, as subscribers are told: a message's type, or "conn", "room", "local",
 * "last", "saving" (app.js adds "language" and "account" for the pages).
 * @typedef {string} What */

/** @type {State} */
const state = {
  conn: "connecting", // the WebSocket: connecting | open | closed
  saving: false, // the server cannot store moves for a moment
  info: null, // /api/info: bot levels, presets, room settings' ranges, text limits
  lobby: { rooms: null, shown: 0 }, // the open games list, and how many of each kind are shown
  replay: null, // the replay page's game: {code, record, error, index: the position shown}
  room: null, // the room of this page: {code, game, mode: player|watch|prompt|missing|null}
  seat: null, // our seat in it (null: watching)
  view: null, // the latest `state` message of the room (the server's view for us)
  clock: { deadline: null, pause: null }, // when the turn and the pause between rounds end
  chat: [],
  unread: 0,
  draft: { chat: "" }, // text being typed, kept across re-renders
  turn: null, // the move being built (turn.js)
  selection: null, // id of the selected piece
  marked: new Set(), // dice marked to be thrown again (Xpress)
  check: null, // the server's reading of the move being built (`checked`)
  checkSeq: 0,
  hint: null,
  rated: null, // a rated game's rating changes once it is over: [{seat, before, after}]
  busy: false, // a move is being sent
  rolling: new Set(), // dice just thrown (they roll once on the screen)
  lastRoll: null,
  // the last move of another player: {key: the table it left, seat, marks per set and piece
  // (follow.js), until: when its highlight ends, fly: its pieces are still to fly in}
  last: null,
  // sort: 789 | 777 | hand (the player's own order, `order`: the rack's faces); confirmDraw:
  // the player pressed Draw with a move being built (the page asks first)
  ui: { sideTab: "log", sort: savedSort(), order: null, confirmDraw: false },
};

/** @type {import("./types.js").GameAdapter | null} */
let game = null; // the adapter of the room's game (game_tiles.js / game_xpress.js)
/** @type {Set<(s: State, what: What) => void>} */
const subscribers = new Set();
/** @type {ReturnType<typeof setTimeout> | undefined} */
let rollTimer;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let lastTimer;

// The adapter of the room's game: a room's messages come only once the page entered it.
function adapter() {
  if (!game) throw new Error("no room entered");
  return game;
}

function savedSort() {
  try { return localStorage.getItem("rummikub.sort") || "789"; } catch { return "789"; }
}

export function getState() { return state; }

/**
 * Call `fn(state, what)` after every change; returns the function that stops it.
 * @param {(s: State, what: What) => void} fn
 */
export function subscribe(fn) {
  subscribers.add(fn);
  return () => subscribers.delete(fn);
}

/** @param {What} what */
function notify(what) { for (const fn of [...subscribers]) fn(state, what); }

export function myTurn() {
  const g = state.view && state.view.game;
  return !!g && state.seat != null && !g.round_over && g.current === state.seat;
}

// The move being built is kept for this tab (sessionStorage), per room and seat: a reload or a
// reconnect finds it again.
function savedKey() {
  return state.room && state.seat != null ? `rummikub.turn.${state.room.code}.${state.seat}` : null;
}

function saveTurn() {
  const key = savedKey();
  if (!key || !state.turn) return;
  const arranged = state.ui.sort === "hand" ? state.ui.order : null;
  try { sessionStorage.setItem(key, JSON.stringify({ ...saveable(state.turn), order: arranged })); } catch { /* storage off */ }
}

/** @returns {import("./turn.js").SavedTurn | null} */
function savedTurn() {
  const key = savedKey();
  try { return key ? JSON.parse(sessionStorage.getItem(key) ?? "null") : null; } catch { return null; }
}

// The move starts again from the position the server sent (`resume`: or from the move this
// tab kept, if it was built on that position).
function resetTurn(resume = false) {
  const g = state.view && state.view.game;
  if (!g) return; // no game: no move (onState does not call it then)
  const game = adapter();
  const turn = startTurn(game.turnKey(g), g.table, state.seat == null ? [] : game.hand(g, state.seat));
  state.turn = turn;
  const saved = resume ? savedTurn() : null;
  if (saved && saved.order && !state.ui.order) Object.assign(state.ui, { sort: "hand", order: saved.order });
  const resumed = myTurn() && restoreSaved(turn, saved);
  if (!resumed && state.ui.sort === "hand" && state.ui.order) orderRack(turn, state.ui.order);
  const last = lastMove(g);
  if (last) markTurn(turn, last.marks);
  state.ui.confirmDraw = false;
  state.selection = null;
  state.check = null;
  state.hint = null;
  state.marked = new Set();
}

/** @param {import("./types.js").StateMsg} msg */
function onState(msg) {
  const prev = state.view;
  state.view = msg;
  state.seat = msg.you;
  const g = msg.game;
  if (!g) { state.turn = null; return; }
  const game = adapter();
  const now = performance.now();
  state.clock = {
    deadline: g.time_left == null ? null : now + g.time_left * 1000,
    pause: g.pause_left == null ? null : now + g.pause_left * 1000,
  };
  // the table changed by another's move: what the move did (the mover: the log's newest entry)
  const was = prev && prev.game;
  const log = g.log || [];
  const mover = log.length ? log[log.length - 1].seat : was ? was.current : null;
  if (was && mover != null && was.round === g.round && mover !== state.seat
      && JSON.stringify(was.table) !== JSON.stringify(g.table)) {
    state.last = { key: lastKey(g), seat: mover, marks: tableMarks(was.table, g.table), until: 0, fly: true };
    highlight();
  } else if (was && was.round !== g.round) state.last = null;
  const keep = state.turn && state.turn.key === game.turnKey(g) && myTurn() && prev && prev.game;
  if (!keep) resetTurn(true);
  saveTurn();
  const roll = game.roll ? game.roll(g) : null;
  if (roll && roll.id !== state.lastRoll) {
    // a page opened in the middle of a round shows the dice still
    state.rolling = state.lastRoll == null && roll.late ? new Set() : new Set(roll.dice);
    state.lastRoll = roll.id;
    clearTimeout(rollTimer);
    rollTimer = setTimeout(() => { state.rolling = new Set(); }, 700);
  }
}

// The key of the table a move left: the round and the sets on it.
/** @param {import("./types.js").GameState} g */
function lastKey(g) { return `${g.round}:${JSON.stringify(g.table)}`; }

// The last move of another player, while the table is as it left it (the players after it may
// have drawn), else null.
/** @param {import("./types.js").GameState} g */
export function lastMove(g) { return state.last && state.last.key === lastKey(g) ? state.last : null; }

// Show the last move's highlight for a while (and its pieces flying in), then re-render
// without it.
function highlight() {
  if (!state.last) return;
  state.last.until = performance.now() + SHOW_MS;
  state.last.fly = true;
  clearTimeout(lastTimer);
  lastTimer = setTimeout(() => notify("last"), SHOW_MS + 50);
}

// "Last move": show it again.
export function showLastMove() {
  if (!state.last) return;
  highlight();
  notify("last");
}

// The view flew the last move's pieces in (a change that re-renders nothing).
export function flown() { if (state.last) state.last.fly = false; }

// A message from the server.
/** @param {ServerMsg} msg */
export function receive(msg) {
  if (msg.type === "state") state.saving = Boolean(msg.saving);
  const room = state.room;
  const here = room && (msg.room == null || msg.room === room.code
    || (typeof msg.room === "object" && msg.room.code === room.code));
  if (!here) { if (msg.type === "state") notify("saving"); return; }
  switch (msg.type) {
    case "joined":
      state.seat = msg.seat;
      state.chat = msg.chat || [];
      room.mode = "player";
      break;
    case "watching":
      state.seat = null;
      state.chat = msg.chat || [];
      break;
    case "state":
      onState(msg);
      break;
    case "chat":
      state.chat.push(msg);
      if (state.ui.sideTab !== "chat") state.unread++;
      break;
    case "checked":
      if (msg.id !== `check${state.checkSeq}` || !mergeChecked(state.turn, msg)) return;
      state.check = msg;
      break;
    case "hint":
      state.hint = msg;
      break;
    case "rated":
      state.rated = msg.changes;
      break;
    default:
      return;
  }
  notify(msg.type);
}

/** @param {import("./net.js").ConnStatus} status */
export function connection(status) {
  state.conn = status;
  if (status !== "open") state.saving = false;
  notify("conn");
}

// This page shows room `code`, a game played with the adapter `adapter`.
/**
 * @param {string} code
 * @param {import("./types.js").GameAdapter} gameAdapter
 * @param {NonNullable<State["room"]>["mode"]} mode
 */
export function enterRoom(code, gameAdapter, mode) {
  game = gameAdapter;
  Object.assign(state, {
    room: { code, game: gameAdapter.game, mode }, seat: null, view: null, chat: [], unread: 0,
    turn: null, selection: null, marked: new Set(), check: null, hint: null, rated: null, busy: false,
    rolling: new Set(), lastRoll: null, draft: { chat: "" }, last: null,
  });
  state.ui.sideTab = "log";
  // a rack arranged by hand belongs to its room (the room's tab storage brings it back)
  if (state.ui.sort === "hand") state.ui.sort = savedSort();
  state.ui.order = null;
  notify("room");
}

export function leaveRoom() {
  game = null;
  Object.assign(state, { room: null, seat: null, view: null, turn: null, chat: [], hint: null, check: null, last: null });
}

// A change the player makes in the page: `change(state)` changes it (it may call `restart`
// to start the move again from the server's position), then every subscriber renders.
/**
 * @param {(s: State, tools: {restart: () => void}) => void} change
 */
export function update(change) {
  change(state, { restart: () => resetTurn(false) });
  saveTurn();
  notify("local");
}

// Text typed into an input: kept in the state without a re-render.
/**
 * @param {keyof State["draft"]} field
 * @param {string} text
 */
export function setDraft(field, text) { state.draft[field] = text; }
