// live.js against a fake EventSource and API: every (re)connect has a fresh ticket and
// resumes after the page's last event, nothing is delivered twice, and after STREAM_TRIES
// failed streams in a row the page long-polls.

import assert from "node:assert/strict";
import { test } from "node:test";

import { follow, followTable, STREAM_TRIES, streamUrl } from "../../../api/web/live.js";

const flush = async () => {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

function fakes() {
  const sources = [];
  class FakeSource {
    constructor(url) {
      this.url = url;
      this.listeners = {};
      this.closed = false;
      sources.push(this);
    }

    addEventListener(type, fn) {
      (this.listeners[type] ||= []).push(fn);
    }

    emit(type, data) {
      for (const fn of this.listeners[type] || []) fn({ data: JSON.stringify(data) });
    }

    close() {
      this.closed = true;
    }
  }
  let tickets = 0;
  const polls = [];
  const api = {
    streamTicket: async () => ({ ticket: `t${++tickets}` }),
    view: async (gameId, token, options) => {
      polls.push(options.afterVersion);
      return new Promise(() => {}); // a long-poll still waiting
    },
  };
  return { sources, polls, env: { EventSource: FakeSource, api, sleep: async () => {} } };
}

test("the stream URL carries the ticket, the seq to resume after and the invite code", () => {
  assert.equal(streamUrl("g.1", { ticket: "abc", after: 0 }), "/v1/games/g.1/stream?ticket=abc&after=0");
  assert.equal(streamUrl("g", { inviteCode: "x y" }), "/v1/games/g/stream?invite_code=x+y");
  assert.equal(streamUrl("g"), "/v1/games/g/stream");
});

test("a reconnect asks a fresh ticket, resumes after the last event, and nothing comes twice",
  async () => {
    const { sources, env } = fakes();
    const page = { lastSeq: 5, events: [], views: [], modes: [] };
    const live = follow({ gameId: "g1", token: "seat", version: 2, lastSeq: () => page.lastSeq,
      onView: (v) => page.views.push(v.version),
      onEvent: (e) => { page.events.push(e.seq); page.lastSeq = e.seq; },
      onMode: (m) => page.modes.push(m), env });
    await flush();
    assert.equal(sources.length, 1);
    assert.equal(sources[0].url, "/v1/games/g1/stream?ticket=t1&after=5");
    sources[0].emit("view", { version: 2 }); // not newer than the page's
    sources[0].emit("game_event", { seq: 6 });
    sources[0].emit("game_event", { seq: 7 });
    sources[0].emit("view", { version: 3 });
    sources[0].onerror();
    await flush();
    assert.ok(sources[0].closed);
    assert.equal(sources[1].url, "/v1/games/g1/stream?ticket=t2&after=7");
    sources[1].emit("view", { version: 3 });
    sources[1].emit("game_event", { seq: 7 }); // already held
    sources[1].emit("game_event", { seq: 8 });
    sources[1].emit("view", { version: 4 });
    assert.deepEqual(page.events, [6, 7, 8]);
    assert.deepEqual(page.views, [3, 4]);
    assert.deepEqual(page.modes, ["stream"]);
    live.seen(9); // the page's own action answered version 9
    sources[1].emit("view", { version: 9 });
    assert.deepEqual(page.views, [3, 4]);
    live.stop();
    assert.ok(sources[1].closed);
  });

test("streams that fail before any view fall back to long-polls from the last version",
  async () => {
    const { sources, polls, env } = fakes();
    const modes = [];
    const live = follow({ gameId: "g2", token: null, version: 7, onView: () => {},
      onMode: (m) => modes.push(m), env });
    for (let i = 0; i < STREAM_TRIES; i += 1) {
      await flush();
      assert.equal(sources.length, i + 1);
      assert.equal(sources[i].url, "/v1/games/g2/stream"); // a spectator: no ticket
      sources[i].onerror();
    }
    await flush();
    assert.equal(sources.length, STREAM_TRIES);
    assert.deepEqual(modes, ["poll"]);
    assert.deepEqual(polls, [7]);
    live.stop();
  });

test("a table's stream reports each change; its failures fall back to reading the table",
  async () => {
    const { sources, env } = fakes();
    let changes = 0;
    const live = followTable({ tableId: "t1", inviteCode: "c", onChange: () => { changes += 1; },
      env });
    assert.equal(sources[0].url, "/v1/tables/t1/stream?invite_code=c");
    sources[0].emit("table", {});
    sources[0].emit("table", {});
    assert.equal(changes, 2);
    live.stop();
    assert.ok(sources[0].closed);
  });
