// @ts-check
// The page of an address that has none: the server answers it with the client's page and a
// 404 (body data-missing), or the client's router knows no page there. Said in the page's
// language, with the top bar, and a way back to the lobby.
import { t } from "./i18n.js";
import { h } from "./util.js";

export class NotFoundPage {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    this.render();
  }

  render() {
    this.root.replaceChildren(h("section", { class: "card center narrow not-found", id: "not-found" },
      h("h1", {}, t("notfound.title")),
      h("p", {}, t("notfound.text")),
      h("p", { class: "not-found-path" }, h("code", {}, location.pathname)),
      h("p", {}, h("a", { class: "btn primary", id: "not-found-back", href: "/", "data-link": true }, t("room.back")))));
  }

  destroy() {}
}
