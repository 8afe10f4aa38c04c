// The chat of a game (bottom right of the table): the messages, read from the game's `chat`
// events, each as "name: text" (text nodes only: a message is never markup), and a seat's
// field that sends one with Enter (POST /v1/games/{id}/chat). A refusal is said under the
// field and the text is kept: a 422 with the server's reason, a 429 with the wait.

import { api, failedWrite } from "./api.js";
import { el } from "./dom.js";

const CHAT_LINES = 100;

export class ChatBox {
  constructor(root, { gameId, token }) {
    this.root = root;
    this.gameId = gameId;
    this.token = token;
    this.messages = new Map(); // seq -> chat event
    this.draft = "";
    this.note = "";
    this.seat = null;
    this.sending = false;
  }

  /** A `chat` event (from the events, the stream, or the answer to our own message). */
  add(event) {
    if (this.messages.has(event.seq)) return;
    this.messages.set(event.seq, event);
    const list = this.root.querySelector(".chat ol");
    if (list) {
      this.fill(list);
      list.scrollTop = list.scrollHeight;
    }
  }

  /** The chat box for `seat` (null: a spectator, who reads only). */
  render(seat) {
    this.seat = seat;
    const parts = [el("h2", {}, "Chat"),
      el("ol", { role: "log", "aria-live": "polite", "aria-label": "Chat" })];
    if (seat !== null) {
      const input = el("input", { name: "chat", maxlength: "200", autocomplete: "off",
        "aria-label": "Chat message", placeholder: "Say something (Enter sends)",
        "data-focus": "chat:input" });
      input.value = this.draft;
      input.addEventListener("input", () => { this.draft = input.value; });
      const form = el("form", { class: "chat-form" }, input,
        el("button", { type: "submit" }, "Send"));
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        this.send();
      });
      parts.push(form);
    } else {
      parts.push(el("p", { class: "empty" }, "Spectators read the chat; the players write."));
    }
    parts.push(el("p", { class: "chat-note", role: "status" }, this.note));
    const box = el("div", { class: "chat" }, parts);
    this.fill(box.querySelector("ol"));
    return box;
  }

  fill(list) {
    const messages = [...this.messages.values()].sort((a, b) => a.seq - b.seq)
      .slice(-CHAT_LINES);
    list.replaceChildren(...messages.map((m) => el("li", { "data-seq": m.seq },
      el("strong", { class: "who" }, m.seat === this.seat ? "You" : m.name), ": ",
      el("span", { class: "said" }, m.text))));
  }

  say(line) {
    this.note = line;
    const node = this.root.querySelector(".chat-note");
    if (node) node.textContent = line;
  }

  async send() {
    const text = this.draft.trim();
    if (!text || this.sending) return;
    this.sending = true;
    try {
      const sent = await api.chat(this.gameId, this.token, text);
      this.draft = "";
      const input = this.root.querySelector(".chat input");
      if (input) input.value = "";
      this.say("");
      this.add({ type: "chat", ...sent });
    } catch (error) {
      if (error.status === 429) {
        this.say(`Not sent: too many messages; try again in ${error.retryAfter ?? "a few"} s.`);
      } else if (error.status === 422) {
        this.say(`Not sent: the message ${(error.problem.errors?.text || [error.message])[0]}.`);
      } else {
        this.say(failedWrite(error, "your message", "Not sent"));
      }
    } finally {
      this.sending = false;
    }
  }
}
