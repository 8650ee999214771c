// WCAG contrast from the computed styles of the page (contrast.py runs it in the page).
// The colours behind an element: its own background and its ancestors', translucent ones
// laid over the first opaque one, a gradient counted by each of its colours.
const parse = (s) => {
  const m = /rgba?\(([^)]+)\)/.exec(s || "");
  if (!m) return null;
  const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
};
const over = (top, under) => {  // top laid over an opaque colour
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
};
const lum = (c) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
// the colours one element paints behind its content (several for a gradient; [] for none)
const layer = (e) => {
  const cs = getComputedStyle(e);
  const base = parse(cs.backgroundColor) || [0, 0, 0, 0];
  const img = cs.backgroundImage || "none";
  if (img.includes("gradient")) {
    const stops = (img.match(/rgba?\([^)]+\)/g) || []).map(parse);
    return stops.map((s) => (base[3] > 0 && s[3] < 1 ? over(s, over(base, [255, 255, 255, 1])) : s));
  }
  return base[3] > 0 ? [base] : [];
};
// every colour that may be behind element e (its own background included)
const backdrops = (e) => {
  const layers = [];
  for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
    const l = layer(n);
    if (!l.length) continue;
    layers.push(l);
    if (l.every((c) => c[3] >= 1)) break;
  }
  let under = [[255, 255, 255, 1]];  // the canvas, should nothing be opaque
  for (const l of layers.reverse()) {
    const next = [];
    for (const u of under) for (const c of l) next.push(over(c, u));
    under = [...new Map(next.map((c) => [c.map(Math.round).join(), c])).values()].slice(0, 64);
  }
  return under;
};
const fade = (e) => { let o = 1; for (let n = e; n && n.nodeType === 1; n = n.parentElement) o *= Number(getComputedStyle(n).opacity); return o; };
const seen = (e) => {
  const r = e.getBoundingClientRect();
  if (r.width <= 1 || r.height <= 1) return false;
  const cs = getComputedStyle(e);
  return cs.visibility === "visible" && !e.closest("[hidden], .sr-only");
};
const what = (e, text) => `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : ""} "${text.slice(0, 40)}"`;

// the page's texts below WCAG AA: [what, ratio, needed]
const lowText = () => {
  const low = [];
  for (const e of document.querySelectorAll("body *")) {
    if (["SCRIPT", "STYLE", "svg", "SVG", "OPTION", "TITLE"].includes(e.tagName) || e.closest("svg")) continue;
    const field = ["INPUT", "SELECT", "TEXTAREA"].includes(e.tagName) && !["checkbox", "radio", "range", "hidden"].includes(e.type);
    const own = field ? (e.value || "") : [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
    if (!own || !seen(e)) continue;
    if (e.closest(":disabled, [aria-disabled='true']")) continue;  // inactive: exempt
    const cs = getComputedStyle(e);
    if (cs.backgroundClip === "text" || cs.webkitBackgroundClip === "text") continue;  // painted, not a colour
    const fg = parse(cs.color);
    if (!fg || fg[3] === 0) continue;
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    const need = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    const alpha = fg[3] * fade(e);
    let worst = Infinity;
    for (const bg of backdrops(e)) worst = Math.min(worst, ratio(over([fg[0], fg[1], fg[2], alpha], bg), bg));
    if (worst < need - 0.005) low.push([what(e, own), Math.round(worst * 100) / 100, need]);
  }
  return low;
};

// the focused element's indicator: [what, outline width, contrast with its surroundings]
const focusRing = () => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const cs = getComputedStyle(e);
  const width = cs.outlineStyle === "none" || cs.outlineStyle === "auto" ? 0 : parseFloat(cs.outlineWidth);
  const ring = parse(cs.outlineColor) || [0, 0, 0, 0];
  // the ring lies outside the element (its offset): what is behind it is the parent's backdrop
  let worst = Infinity;
  for (const bg of backdrops(e.parentElement || e)) worst = Math.min(worst, ratio(over(ring, bg), bg));
  return [what(e, e.textContent || e.getAttribute("aria-label") || ""), width, Math.round(worst * 100) / 100];
};
