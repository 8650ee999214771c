// The move a player builds on his turn, before he sends it: the table's sets and his own pieces
// (rack or dice), each piece an item {id, s: face, rack: from his own pieces, die}. The same for
// both games; the store keeps it, these functions change it.
import { baseOf } from "./pieces.js";

let uid = 0;
const item = (s, rack, die = null) => ({ id: `p${++uid}`, s, rack, die });

// The move at the start of a turn: `table` as the server shows it, `hand` the player's pieces
// ({face, die}).
export function startTurn(key, table, hand) {
  return {
    key,
    start: { table, hand },
    melds: table.map((m) => m.map((s) => item(s, false))),
    rack: hand.map((p) => item(p.face, true, p.die ?? null)),
  };
}

// Pieces from the player's own that are on the table now.
export function placed(turn) { return turn ? turn.melds.flat().filter((x) => x.rack) : []; }

export function tableJson(turn) { return turn.melds.map((m) => m.map((x) => x.s)); }

export function changedTable(turn) {
  return JSON.stringify(tableJson(turn)) !== JSON.stringify(turn.start.table);
}

export function locate(turn, id) {
  const r = turn.rack.findIndex((x) => x.id === id);
  if (r >= 0) return { where: "rack", index: r, item: turn.rack[r] };
  for (let m = 0; m < turn.melds.length; m++) {
    const i = turn.melds[m].findIndex((x) => x.id === id);
    if (i >= 0) return { where: "meld", meld: m, index: i, item: turn.melds[m][i] };
  }
  return null;
}

// Move a piece to `target`: {kind: "meld", meld, pos} | {kind: "new"} | {kind: "rack", pos?}
// (a position in the rack as it is shown: the player arranges his rack). A piece
// that was on the table at the start never goes to the rack (returns "table-stays"). Jokers of
// the sets touched lose their role until the server reads the sets again. Returns the index of
// a set just made (to bring it into view), or null.
export function movePiece(turn, id, target) {
  const from = locate(turn, id);
  if (!from) return null;
  const piece = from.item;
  if (target.kind === "rack" && !piece.rack) return "table-stays";
  const touched = new Set();
  let targetMeld = target.kind === "meld" ? turn.melds[target.meld] : null;
  let pos = target.pos;
  if (from.where === "rack") {
    turn.rack.splice(from.index, 1);
    if (target.kind === "rack" && target.pos != null && target.pos > from.index) pos = target.pos - 1;
  }
  else {
    const src = turn.melds[from.meld];
    src.splice(from.index, 1);
    touched.add(src);
    if (targetMeld === src && pos > from.index) pos--;
  }
  if (target.kind === "meld" && targetMeld) {
    targetMeld.splice(Math.max(0, Math.min(pos, targetMeld.length)), 0, piece);
    touched.add(targetMeld);
  } else if (target.kind === "new") {
    targetMeld = [piece];
    turn.melds.push(targetMeld);
    touched.add(targetMeld);
  } else if (target.pos != null) {
    turn.rack.splice(Math.max(0, Math.min(pos, turn.rack.length)), 0, piece);
  } else {
    turn.rack.push(piece);
  }
  for (const m of touched) for (const x of m) if (baseOf(x.s) === "J") x.s = "J";
  if (baseOf(piece.s) === "J") piece.s = "J";
  turn.melds = turn.melds.filter((m) => m.length);
  return target.kind === "new" ? turn.melds.indexOf(targetMeld) : null;
}

// The server read the sets (`checked`): each valid set takes its canonical order and the roles
// of its jokers.
export function mergeChecked(turn, checked) {
  if (!turn || checked.melds.length !== turn.melds.length) return false;
  checked.melds.forEach((res, i) => {
    if (!res.ok) return;
    const pool = [...turn.melds[i]];
    const ordered = [];
    for (const tok of res.meld) {
      const k = pool.findIndex((x) => baseOf(x.s) === baseOf(tok));
      if (k < 0) return;
      const [piece] = pool.splice(k, 1);
      piece.s = tok;
      ordered.push(piece);
    }
    if (ordered.length === turn.melds[i].length) turn.melds[i] = ordered;
  });
  return true;
}

// Lay out a suggested table (a hint) from the turn's start: table pieces first, then the
// player's own pieces that `usable` allows; the rest stay on the rack.
export function layOut(turn, table, usable = () => true) {
  const tablePool = turn.start.table.flat().map((s) => item(s, false));
  const hand = turn.start.hand.map((p) => item(p.face, true, p.die ?? null));
  const take = (tok) => {
    let k = tablePool.findIndex((x) => baseOf(x.s) === baseOf(tok));
    if (k >= 0) return tablePool.splice(k, 1)[0];
    k = hand.findIndex((x) => x.s === baseOf(tok) && usable(x));
    return k >= 0 ? hand.splice(k, 1)[0] : item(tok, true);
  };
  turn.melds = table.map((m) => m.map((tok) => { const x = take(tok); x.s = tok; return x; }));
  turn.rack = hand;
}

// --- undo and redo: every step of the move is kept -------------------------------------------
const copy = (x) => ({ ...x });
function snapshot(turn) { return { melds: turn.melds.map((m) => m.map(copy)), rack: turn.rack.map(copy) }; }
function restore(turn, snap) { turn.melds = snap.melds; turn.rack = snap.rack; }

// Before a step of the move: remember the move as it is (a new step forgets what was undone).
export function recordStep(turn) {
  turn.undo = [...(turn.undo || []), snapshot(turn)].slice(-200);
  turn.redo = [];
}

export function undoStep(turn) {
  if (!turn.undo || !turn.undo.length) return false;
  turn.redo = [...(turn.redo || []), snapshot(turn)];
  restore(turn, turn.undo.pop());
  return true;
}

export function redoStep(turn) {
  if (!turn.redo || !turn.redo.length) return false;
  turn.undo = [...(turn.undo || []), snapshot(turn)];
  restore(turn, turn.redo.pop());
  return true;
}

// --- the rack in the player's own order ----------------------------------------------------
// Put the rack in `order` (faces, as the player arranged them); pieces not in it go last.
export function orderRack(turn, order) {
  const left = [...order];
  const rank = (x) => { const k = left.indexOf(x.s); if (k < 0) return Infinity; left[k] = null; return k; };
  const ranked = turn.rack.map((x) => [rank(x), x]);
  ranked.sort((a, b) => a[0] - b[0]);
  turn.rack = ranked.map(([, x]) => x);
}

// --- kept across a reload: the move as plain data, and back ---------------------------------
const plain = (x) => ({ s: x.s, rack: x.rack, die: x.die });
export function saveable(turn) { return { key: turn.key, melds: turn.melds.map((m) => m.map(plain)), rack: turn.rack.map(plain) }; }

// The move `saved` rebuilt on the turn just started, if it holds exactly the turn's pieces.
export function restoreSaved(turn, saved) {
  if (!saved || saved.key !== turn.key) return false;
  const id = (x) => `${baseOf(x.s)}/${x.rack ? "r" : "t"}/${x.die ?? ""}`;
  const have = [...turn.rack, ...turn.melds.flat()].map(id).sort();
  const want = [...saved.rack, ...saved.melds.flat()].map(id).sort();
  if (JSON.stringify(have) !== JSON.stringify(want)) return false;
  turn.melds = saved.melds.map((m) => m.map((x) => item(x.s, x.rack, x.die)));
  turn.rack = saved.rack.map((x) => item(x.s, x.rack, x.die));
  turn.restored = true;
  return true;
}
