// @ts-check
// The replay's list of moves, as a chess site lists a game's moves beside the board: every
// position of the game (the deal of each round, then each turn), to click through; the one
// shown is marked and kept in view in the list. Once the game is analysed, an inaccuracy,
// mistake or blunder carries its sign (?!, ?, ??).
import { t } from "./i18n.js";
import { judgedTurn } from "./review.js";
import { h } from "./util.js";

/** @type {Record<string, string>} */
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/**
 * @param {import("./types.js").Step[]} steps
 * @param {(index: number) => void} pick go to a position
 */
export function moveList(steps, pick) {
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  const list = h("ol", { class: "move-list", id: "replay-moves", "aria-label": t("replay.moves") });
  steps.forEach((s, i) => {
    if (s.turn < 0 && i > 0) list.append(h("li", { class: "move-round", "aria-hidden": "true" }));
    const b = h("button", { class: "move" + (s.turn < 0 ? " move-deal" : ""), type: "button", dataset: { index: i },
      onclick: () => pick(i) }, s.text);
    buttons.push(b);
    list.append(h("li", {}, b));
  });
  const el = h("nav", { class: "move-box", "aria-label": t("replay.moves") }, h("h3", {}, t("replay.moves")), list);
  /** @type {number | null} */
  let shown = null;
  /** @type {unknown} */
  let signed = null;
  return {
    el,
    // mark position `i` and bring it into view within the list (not the page)
    /** @param {number} i */
    mark(i) {
      if (shown === i) return;
      if (shown != null && buttons[shown]) { buttons[shown].classList.remove("current"); buttons[shown].removeAttribute("aria-current"); }
      shown = i;
      const b = buttons[i];
      if (!b) return;
      b.classList.add("current");
      b.setAttribute("aria-current", "step");
      const top = b.offsetTop, bottom = top + b.offsetHeight; // the list is positioned (style.css)
      if (top < list.scrollTop) list.scrollTop = top;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
    },
    // the signs of the analysis's mistakes (once per analysis)
    /** @param {import("./review.js").Analysis} analysis */
    annotate(analysis) {
      if (signed === analysis) return;
      signed = analysis;
      steps.forEach((s, i) => {
        const judged = s.turn >= 0 ? judgedTurn(analysis, s.round, s.turn) : null;
        const sign = judged ? SIGNS[judged.verdict] : null;
        const b = buttons[i];
        const old = b.querySelector(".move-sign");
        if (old) old.remove();
        // an Xpress turn has several steps: the sign goes on its last
        const last = !steps[i + 1] || steps[i + 1].round !== s.round || steps[i + 1].turn !== s.turn;
        if (sign && judged && last) {
          b.append(h("span", { class: `move-sign verdict-${judged.verdict}`, title: t(`verdict.${judged.verdict}`) }, sign));
        }
      });
    },
  };
}
