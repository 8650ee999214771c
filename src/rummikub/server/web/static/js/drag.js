// @ts-check
// Drag and drop of pieces with Pointer Events (mouse, touch and pen alike), and where a piece
// dropped at a point lands: in a set (at a position), on "+ new set", or back on the rack. A
// piece held at the table's top or bottom edge scrolls the table.

const EDGE = 44; // px: a piece held this near the table's edge scrolls it
const DWELL = 450; // ms it is held there first

// Make `el` draggable. `canMove()` says whether it may move now; a press without movement is a
// tap (`onTap`); `onDrop(target)` gets the drop target (null: nowhere). `onStart`/`onEnd`
// bracket a drag (the view holds its re-renders meanwhile).
/** A drop target, and the element found there.
 * @typedef {import("./turn.js").Target & {el: Element}} Drop */

/**
 * @param {HTMLElement} el
 * @param {object} how
 * @param {Element} how.root where drop targets are found
 * @param {() => boolean} how.canMove
 * @param {() => void} how.onTap
 * @param {(target: Drop | null) => void} how.onDrop
 * @param {() => void} how.onStart
 * @param {() => void} how.onEnd
 */
export function draggable(el, { root, canMove, onTap, onDrop, onStart, onEnd }) {
  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0 || !canMove()) return;
    ev.preventDefault();
    const sx = ev.clientX, sy = ev.clientY;
    const rect = el.getBoundingClientRect();
    const offX = sx - rect.left, offY = sy - rect.top;
    /** @type {HTMLElement | null} */
    let ghost = null;
    /** @type {Element | null} */
    let last = null;
    const scroller = edgeScroller(root, (x, y) => hover(x, y));
    try { el.setPointerCapture(ev.pointerId); } catch { /* synthetic */ }
    /** @param {PointerEvent} e */
    const move = (e) => {
      if (!ghost) {
        if (Math.hypot(e.clientX - sx, e.clientY - sy) < 6) return;
        ghost = /** @type {HTMLElement} */ (el.cloneNode(true));
        ghost.classList.add("ghost");
        ghost.style.width = `${rect.width}px`;
        ghost.style.height = `${rect.height}px`;
        document.body.append(ghost);
        el.classList.add("dragging");
        onStart();
      }
      ghost.style.transform = `translate(${e.clientX - offX}px, ${e.clientY - offY}px) rotate(-3deg)`;
      hover(e.clientX, e.clientY);
      scroller.at(e.clientX, e.clientY);
    };
    /**
     * @param {number} x
     * @param {number} y
     */
    const hover = (x, y) => {
      const target = dropTarget(root, x, y);
      if (last) last.classList.remove("drop-hover");
      last = target ? target.el : null;
      if (last) last.classList.add("drop-hover");
    };
    /**
     * @param {PointerEvent} e
     * @param {boolean} cancelled
     */
    const end = (e, cancelled) => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", cancel);
      scroller.stop();
      if (last) last.classList.remove("drop-hover");
      if (!ghost) { if (!cancelled) onTap(); return; }
      ghost.remove();
      el.classList.remove("dragging");
      onEnd();
      onDrop(cancelled ? null : dropTarget(root, e.clientX, e.clientY));
    };
    /** @param {PointerEvent} e */
    const up = (e) => end(e, false);
    /** @param {PointerEvent} e */
    const cancel = (e) => end(e, true);
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", cancel);
  });
}

// What lies under (x, y) inside `root`: {kind: "meld", meld, pos, el} (pos counts the dragged
// piece, which is still in its set), {kind: "new", el}, {kind: "rack", pos, el} (pos: in the
// rack as shown) or null.
/**
 * @param {Element} root
 * @param {number} x
 * @param {number} y
 * @returns {Drop | null}
 */
export function dropTarget(root, x, y) {
  const under = document.elementFromPoint(x, y);
  if (!under) return null;
  const meld = /** @type {HTMLElement | null} */ (under.closest(".meld"));
  if (meld && root.contains(meld)) {
    const all = [...meld.querySelectorAll(".piece")];
    let pos = all.length;
    for (let i = 0; i < all.length; i++) {
      if (all[i].classList.contains("dragging")) continue;
      const r = all[i].getBoundingClientRect();
      if (x < r.left + r.width / 2 && y < r.bottom + 8) { pos = i; break; }
    }
    return { kind: "meld", meld: Number(meld.dataset.index), pos, el: meld };
  }
  const zone = under.closest(".new-meld, .melds");
  if (zone && root.contains(zone)) return { kind: "new", el: zone.closest(".new-meld") || zone };
  const rack = under.closest(".rack");
  if (rack && root.contains(rack)) return { kind: "rack", pos: rackPosition(rack, x, y), el: rack };
  return null;
}

// Where in a rack (its pieces in rows) a piece dropped at (x, y) goes: before the first piece
// of the row under the point whose middle is right of it, else after the row's last piece.
/**
 * @param {Element} rack
 * @param {number} x
 * @param {number} y
 */
function rackPosition(rack, x, y) {
  const all = [...rack.querySelectorAll(".piece")];
  let pos = all.length;
  let row = false;
  for (let i = 0; i < all.length; i++) {
    const r = all[i].getBoundingClientRect();
    if (y < r.top - 4 || y > r.bottom + 4) { if (row) break; continue; }
    row = true;
    pos = i + 1;
    if (x < r.left + r.width / 2) { pos = i; break; }
  }
  return pos;
}

// Scrolls the table while the pointer is held near its top edge (or above it, over the players)
// or its bottom edge: after a short dwell (a piece dropped at once on a set near the edge must
// land where it was aimed), then faster the nearer the edge, frame by frame until the pointer
// leaves the edge or the drag ends. `moved(x, y)` is told after each step (what lies under the
// pointer changed).
/**
 * @param {Element} root
 * @param {(x: number, y: number) => void} moved
 */
function edgeScroller(root, moved) {
  let x = 0, y = 0;
  /** @type {number | null} */
  let frame = null;
  /** @type {number | null} */
  let since = null;
  /** @returns {[Element | null, number]} */
  const speed = () => {
    const area = root.querySelector(".table-area");
    if (!area) return [null, 0];
    const r = area.getBoundingClientRect();
    if (x < r.left || x > r.right) return [area, 0];
    if (y < r.top + EDGE && y > r.top - 3 * EDGE) return [area, -Math.min(14, Math.ceil((r.top + EDGE - y) / 5))];
    if (y > r.bottom - EDGE && y <= r.bottom) return [area, Math.min(14, Math.ceil((y - r.bottom + EDGE) / 4))];
    return [area, 0];
  };
  /** @param {number} now */
  const step = (now) => {
    frame = null;
    const [area, dy] = speed();
    if (!area || !dy) { since = null; return; }
    if (since == null) since = now;
    if (now - since >= DWELL) {
      const before = area.scrollTop;
      area.scrollTop += dy;
      if (area.scrollTop === before) { since = null; return; } // at the end
      moved(x, y);
    }
    frame = requestAnimationFrame(step);
  };
  return {
    /**
     * @param {number} px
     * @param {number} py
     */
    at(px, py) {
      x = px; y = py;
      if (frame == null) frame = requestAnimationFrame(step);
    },
    stop() { if (frame != null) cancelAnimationFrame(frame); frame = null; since = null; },
  };
}
