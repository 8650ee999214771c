// @ts-check
// Who is at the table: a person who leaves the game, loses his connection, is replaced by a
// bot or comes back is told in a notice, and (from the server's log: `left`, `standin`,
// `back`) in a line of the Moves list — not only by the grey dot on his chip.
import { t } from "./i18n.js";
import { toast } from "./util.js";

/**
 * The Moves line of a presence entry of the log (null: the entry is a turn).
 * @param {import("./types.js").LogEntry} e
 * @param {string} name
 */
export function presenceLine(e, name) {
  switch (e.action) {
    case "left": return t("presence.left", { name });
    case "standin": return t("presence.standin", { name });
    case "back": return t("presence.back", { name });
    default: return null;
  }
}

export class Presence {
  constructor() {
    /** @type {{code: string, seats: {connected: boolean, standin: boolean}[]} | null} */
    this.was = null; // the seats at the last look
  }

  // Compare the seats with the last look and tell what changed for the other persons.
  /** @param {import("./types.js").Ctx} c */
  check(c) {
    const now = c.room.seats.map((s) => ({ connected: s.connected, standin: s.standin }));
    const was = this.was && this.was.code === c.room.code ? this.was.seats : null;
    this.was = { code: c.room.code, seats: now };
    if (!was || c.g.match_over) return;
    const log = c.g.log || [];
    c.room.seats.forEach((seat, i) => {
      if (seat.kind !== "human" || i === c.seat || !was[i]) return;
      const name = c.name(i);
      const last = [...log].reverse().find((e) => e.seat === i);
      if (!was[i].standin && seat.standin) {
        toast(t(last && last.action === "left" ? "presence.left" : "presence.standin", { name }));
      } else if (was[i].standin && !seat.standin) {
        toast(t("presence.back", { name }));
      } else if (was[i].connected && !seat.connected && !seat.standin) {
        toast(t("presence.offline", { name }));
      } else if (!was[i].connected && seat.connected) {
        toast(t("presence.reconnected", { name }));
      }
    });
  }
}
