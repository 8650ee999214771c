// @ts-check
// The WebSocket connection to the server: JSON messages, request ids, automatic reconnect.
import { localise } from "./i18n.js";

// A random id this browser keeps: the server allows one seat per person in a room.
function browserId() {
  let id = null;
  try { id = localStorage.getItem("rummikub.browser"); } catch { /* storage off */ }
  if (!id || !/^[A-Za-z0-9-]{8,64}$/.test(id)) {
    id = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    try { localStorage.setItem("rummikub.browser", id); } catch { /* storage off */ }
  }
  return id;
}
/** @typedef {import("./types.js").ServerMsg} ServerMsg */
/** @typedef {"connecting" | "open" | "closed"} ConnStatus */

export class Net {
  /**
   * @param {object} handlers
   * @param {(msg: ServerMsg) => void} handlers.onMessage every message from the server
   * @param {() => void} [handlers.onOpen] the connection is open (again)
   * @param {(status: ConnStatus) => void} [handlers.onStatus]
   */
  constructor({ onMessage, onOpen, onStatus }) {
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onStatus = onStatus || (() => {});
    /** @type {Map<string, {resolve: (msg: ServerMsg) => void, reject: (err: import("./types.js").Refusal) => void}>} */
    this.pending = new Map();
    this.nextId = 1;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.retry = 0;
    this.closedByUs = false;
    /** @type {(() => void)[]} */
    this.waiting = []; // resolvers of whenOpen()
  }

  // Resolves once the connection is open (at once if it is), or after `ms` in any case.
  /** @returns {Promise<void>} */
  whenOpen(ms = 10000) {
    if (this.open) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      setTimeout(resolve, ms);
    });
  }

  connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws?client=${browserId()}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      this.retry = 0;
      this.onStatus("open");
      for (const resolve of this.waiting.splice(0)) resolve();
      if (this.onOpen) this.onOpen();
    };
    ws.onmessage = (ev) => {
      /** @type {ServerMsg} */
      let msg;
      try { msg = localise(JSON.parse(ev.data)); } catch { return; }
      const waiting = "id" in msg && msg.id != null ? this.pending.get(String(msg.id)) : undefined;
      if (waiting && "id" in msg) {
        const { resolve, reject } = waiting;
        this.pending.delete(String(msg.id));
        if (msg.type === "error") reject(msg); else resolve(msg);
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      for (const { reject } of this.pending.values()) reject({ code: "disconnected", message: "" });
      this.pending.clear();
      if (this.closedByUs) return;
      this.onStatus("closed");
      const delay = Math.min(8000, 400 * 2 ** this.retry++);
      setTimeout(() => { if (!this.closedByUs) this.connect(); }, delay);
    };
  }

  close() {
    this.closedByUs = true;
    if (this.ws) this.ws.close();
  }

  // Connect again at once (after logging in or out: the handshake carries the new session).
  reconnect() {
    const old = this.ws;
    if (old) { old.onclose = null; old.close(); }
    for (const { reject } of this.pending.values()) reject({ code: "disconnected", message: "" });
    this.pending.clear();
    this.retry = 0;
    this.connect();
  }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  /** @param {import("./types.js").ClientMsg} msg */
  send(msg) {
    if (this.ws && this.open) this.ws.send(JSON.stringify(msg));
  }

  // Send a message and wait for the reply carrying the same id (rejects on an error reply, or
  // with {code: "disconnected"}). `R`: the reply the message gets (the protocol says which).
  /**
   * @template {ServerMsg} [R=ServerMsg]
   * @param {import("./types.js").ClientMsg} msg
   * @returns {Promise<R>}
   */
  request(msg) {
    const id = `c${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.ws || !this.open) { reject({ code: "disconnected", message: "" }); return; }
      this.pending.set(id, { resolve: (reply) => resolve(/** @type {R} */ (reply)), reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
}
