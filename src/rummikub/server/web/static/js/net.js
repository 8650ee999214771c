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
export class Net {
  constructor({ onMessage, onOpen, onStatus }) {
    this.onMessage = onMessage;
    this.onOpen = onOpen;
    this.onStatus = onStatus || (() => {});
    this.pending = new Map();
    this.nextId = 1;
    this.ws = null;
    this.retry = 0;
    this.closedByUs = false;
    this.waiting = []; // resolvers of whenOpen()
  }

  // Resolves once the connection is open (at once if it is), or after `ms` in any case.
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
      let msg;
      try { msg = localise(JSON.parse(ev.data)); } catch { return; }
      if (msg.id != null && this.pending.has(msg.id)) {
        const { resolve, reject } = this.pending.get(msg.id);
        this.pending.delete(msg.id);
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

  get open() { return this.ws && this.ws.readyState === WebSocket.OPEN; }

  send(msg) {
    if (this.open) this.ws.send(JSON.stringify(msg));
  }

  // Send a message and wait for the reply carrying the same id (rejects on an error reply).
  request(msg) {
    const id = `c${this.nextId++}`;
    return new Promise((resolve, reject) => {
      if (!this.open) { reject({ code: "disconnected", message: "" }); return; }
      this.pending.set(id, { resolve, reject });
      this.ws.send(JSON.stringify({ ...msg, id }));
    });
  }
}
