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

// Move a piece to `target`: {kind: "meld", meld, pos} | {kind: "new"} | {kind: "rack"}. A piece
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
  if (from.where === "rack") turn.rack.splice(from.index, 1);
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
