// @ts-check
// What the server says about itself (/api/info): bot levels, rules presets, the room settings'
// defaults and ranges, and the length limits of names and chat. Asked for once, kept in the store.
import { update } from "./store.js";
import { getJSON } from "./util.js";

/** @type {Promise<import("./types.js").Info> | null} */
let asked = null;

/** @returns {Promise<import("./types.js").Info>} */
export function loadInfo() {
  if (!asked) {
    asked = getJSON("/api/info").then((/** @type {import("./types.js").Info} */ info) => {
      update((s) => { s.info = info; });
      return info;
    }, (err) => { asked = null; throw err; });
  }
  return asked;
}
