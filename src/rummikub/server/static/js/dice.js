// Xpress dice: a square, rounded die whose face shows the number in its colour and the
// colour letter (for colour-blind players); the joker face is a star on a gold field.
import { COLOURS, parseTile } from "./tiles.js";

const NAMES = ["black", "red", "blue", "orange"];

// A die element showing `face` ("R7", "J", "J=R6"); `die` is the die's number (0-17).
export function dieEl(face, { die = null, small = false } = {}) {
  const p = parseTile(face);
  const el = document.createElement("div");
  el.className = "die" + (small ? " small" : "");
  el.dataset.face = face;
  if (die != null) el.dataset.die = String(die);
  const inner = document.createElement("div");
  inner.className = "die-face";
  if (p.joker) {
    el.classList.add("joker");
    inner.innerHTML = '<span class="star" aria-hidden="true">★</span><span class="letter">J</span>';
    if (p.role) {
      const r = document.createElement("span");
      r.className = "role";
      r.textContent = p.role;
      inner.append(r);
    }
    el.setAttribute("aria-label", p.role ? `joker as ${p.role}` : "joker");
  } else {
    el.classList.add(`c-${NAMES[p.colour] || "black"}`);
    const n = document.createElement("span");
    n.className = "num";
    n.textContent = String(p.number);
    const l = document.createElement("span");
    l.className = "letter";
    l.textContent = COLOURS[p.colour];
    inner.append(n, l);
    el.setAttribute("aria-label", `${NAMES[p.colour]} ${p.number}`);
  }
  el.append(inner);
  return el;
}

// Points of a face left over at the end of a round (joker 10).
export function faceValue(face) {
  const p = parseTile(face);
  return p.joker ? 10 : p.number;
}
