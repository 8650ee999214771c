// Tiles: notation helpers and the DOM of a real-looking tile.
export const COLOURS = "KRBOGPYW";
const NAMES = ["black", "red", "blue", "orange", "green", "purple", "yellow", "white"];

// "R7" -> {colour: 1, number: 7}; "J" / "J=R6" / "J=7" -> joker with an optional role.
export function parseTile(s) {
  if (s[0] === "J") {
    const role = s.includes("=") ? s.split("=")[1] : null;
    return { joker: true, colour: -1, number: 0, role };
  }
  return { joker: false, colour: COLOURS.indexOf(s[0]), number: Number(s.slice(1)), role: null };
}

export function baseOf(s) { return s[0] === "J" ? "J" : s; }

// 789: colour then number; 777: number then colour. Jokers last.
export function sortTiles(tiles, mode, get = (x) => x) {
  const key = (x) => {
    const p = parseTile(get(x));
    if (p.joker) return [99, 99];
    return mode === "777" ? [p.number, p.colour] : [p.colour, p.number];
  };
  return [...tiles].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

export function tileValue(s) {
  const p = parseTile(s);
  return p.joker ? 30 : p.number;
}

// A tile element. `s` is the tile string; the joker shows the tile it stands for, if known.
export function tileEl(s, { small = false } = {}) {
  const p = parseTile(s);
  const el = document.createElement("div");
  el.className = "tile" + (small ? " small" : "");
  el.dataset.tile = s;
  if (p.joker) {
    el.classList.add("joker");
    el.innerHTML = `<span class="face" aria-hidden="true">☺</span>`;
    if (p.role) {
      const r = document.createElement("span");
      r.className = "role";
      r.textContent = p.role;
      el.appendChild(r);
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
    el.append(n, l);
    el.setAttribute("aria-label", `${NAMES[p.colour]} ${p.number}`);
  }
  return el;
}
