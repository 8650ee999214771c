// Drag and drop of pieces with Pointer Events (mouse, touch and pen alike), and where a piece
// dropped at a point lands: in a set (at a position), on "+ new set", or back on the rack.

// Make `el` draggable. `canMove()` says whether it may move now; a press without movement is a
// tap (`onTap`); `onDrop(target)` gets the drop target (null: nowhere). `onStart`/`onEnd`
// bracket a drag (the view holds its re-renders meanwhile).
export function draggable(el, { root, canMove, onTap, onDrop, onStart, onEnd }) {
  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0 || !canMove()) return;
    ev.preventDefault();
    const sx = ev.clientX, sy = ev.clientY;
    const rect = el.getBoundingClientRect();
    const offX = sx - rect.left, offY = sy - rect.top;
    let ghost = null;
    let last = null;
    try { el.setPointerCapture(ev.pointerId); } catch { /* synthetic */ }
    const move = (e) => {
      if (!ghost) {
        if (Math.hypot(e.clientX - sx, e.clientY - sy) < 6) return;
        ghost = el.cloneNode(true);
        ghost.classList.add("ghost");
        ghost.style.width = `${rect.width}px`;
        ghost.style.height = `${rect.height}px`;
        document.body.append(ghost);
        el.classList.add("dragging");
        onStart();
      }
      ghost.style.transform = `translate(${e.clientX - offX}px, ${e.clientY - offY}px) rotate(-3deg)`;
      const target = dropTarget(root, e.clientX, e.clientY);
      if (last) last.classList.remove("drop-hover");
      last = target ? target.el : null;
      if (last) last.classList.add("drop-hover");
    };
    const end = (e, cancelled) => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", cancel);
      if (last) last.classList.remove("drop-hover");
      if (!ghost) { if (!cancelled) onTap(); return; }
      ghost.remove();
      el.classList.remove("dragging");
      onEnd();
      onDrop(cancelled ? null : dropTarget(root, e.clientX, e.clientY));
    };
    const up = (e) => end(e, false);
    const cancel = (e) => end(e, true);
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", cancel);
  });
}

// What lies under (x, y) inside `root`: {kind: "meld", meld, pos, el} (pos counts the dragged
// piece, which is still in its set), {kind: "new", el}, {kind: "rack", el} or null.
export function dropTarget(root, x, y) {
  const under = document.elementFromPoint(x, y);
  if (!under) return null;
  const meld = under.closest(".meld");
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
  if (rack && root.contains(rack)) return { kind: "rack", el: rack };
  return null;
}
