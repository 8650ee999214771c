// @ts-check
// The page's own settings kept in this browser: the colour-blind mode (a shape per colour on
// every tile and die, besides its letter), switched in the top bar.
import { t } from "./i18n.js";

const KEY = "rummikub.colourblind";

function saved() {
  try { return localStorage.getItem(KEY) === "on"; } catch { return false; }
}

/**
 * @param {HTMLElement} button
 * @param {boolean} on
 */
function apply(button, on) {
  document.documentElement.classList.toggle("colourblind", on);
  button.setAttribute("aria-pressed", on ? "true" : "false");
  button.title = t(on ? "prefs.colourblind_on" : "prefs.colourblind_off");
  button.setAttribute("aria-label", t("prefs.colourblind"));
}

// Wire the switch `button`; `onLanguage` words it again.
/** @param {HTMLElement} button */
export function colourBlindSwitch(button) {
  apply(button, saved());
  button.addEventListener("click", () => {
    const on = !saved();
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* storage off */ }
    apply(button, on);
  });
  return () => apply(button, saved());
}
