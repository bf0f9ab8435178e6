// The Mini App's table page: draws the state the server sends over the socket (table.js,
// with motion.js sliding the cards), and sends the moves the player makes by hand (play.js)
// or with the action buttons. Every decision about what is legal is the server's: the page
// only offers what the state's "actions" list (the chat keyboard's own buttons) allows.
"use strict";

(function () {
  const tg = (window.Telegram && window.Telegram.WebApp) || null;
  const { element } = window.DurakPage;
  const query = new URLSearchParams(location.search);
  const initData = tg ? tg.initData : "";
  const startParam = tg && tg.initDataUnsafe ? tg.initDataUnsafe.start_param : null;
  // A replay's direct link: "r", the chat (its minus sign as "m"), "_", the game
  // (bot/ui/webapp.py). Its page, with Telegram's own part of the address (the hash) kept.
  const replay = /^r(m?)([0-9]+)_([A-Za-z0-9_-]+)$/.exec(startParam || query.get("tgWebAppStartParam") || "");
  if (replay) {
    const page = new URL("replay", location.href);
    page.search = new URLSearchParams({ chat: (replay[1] ? "-" : "") + replay[2], game: replay[3] }).toString();
    page.hash = location.hash;
    location.replace(page.href);
    return;
  }
  const chat = query.get("chat") || startParam || query.get("tgWebAppStartParam") || "";

  let texts = {};
  let state = null; // the newest position received
  let drawn = null; // the position the page shows
  let socket = null;
  let retry = 250;
  let frameAsked = false;

  const $ = (id) => document.getElementById(id);
  const t = (id) => texts[id] || "";
  const label = (card) => (state && state.labels[card]) || card;

  const frame = window.DurakFrame.create(tg, () => render(false));
  const prefs = window.DurakPrefs.create(tg);
  const hands = window.DurakPlay.create({
    actions: () => (state && state.actions) || [],
    send,
    redraw: () => render(false),
    buzz: frame.buzz,
    swipes: frame.swipes,
  });

  // -- the socket --------------------------------------------------------------------------

  // Telegram's initData goes in the socket's Sec-WebSocket-Protocol header, the one header a
  // page may set on a socket, never in its URL, which proxies log: the protocols "tma" and
  // the initData in base64url (a protocol name allows no "=", "%" or "&"). The server checks
  // it before the upgrade and chooses "tma" (bot/webapp/auth.py).
  function protocols() {
    let binary = "";
    for (const byte of new TextEncoder().encode(initData)) binary += String.fromCharCode(byte);
    const encoded = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return encoded ? ["tma", encoded] : ["tma"]; // none (no Telegram): the server's 401
  }

  function connect() {
    const url = new URL("ws", location.href);
    url.protocol = location.protocol === "https:" ? "wss:" : "ws:";
    url.search = new URLSearchParams({
      chat, version: state ? String(state.version) : "-1",
    }).toString();
    socket = new WebSocket(url, protocols());
    socket.onopen = () => {
      retry = 250;
      if (state) render(false); // the status line again, in place of why the socket had closed
      if (document.hidden) presence();
    };
    socket.onmessage = (event) => receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      socket = null;
      closedBecause(event.code);
    };
  }

  // Why the server closed the socket (Closed in bot/webapp/server.py), and when to connect
  // again: a lost connection at once and then less often; a page gone quiet when it is seen
  // again; one replaced by the same person's newer page once it is left and opened again
  // (two pages open at once would replace each other for ever); a table full of watchers
  // in a minute; a table its viewer may no longer see, never.
  const CLOSED = { NOT_ALLOWED: 4403, SILENT: 4408, REPLACED: 4409, FULL: 4429 };
  const FULL_RETRY_MS = 60000;

  function closedBecause(code) {
    if (code === CLOSED.NOT_ALLOWED) {
      $("status").textContent = t("webapp-no-access");
    } else if (code === CLOSED.REPLACED) {
      $("status").textContent = t("webapp-replaced");
      connectWhenSeen(); // once this page is left and opened again
    } else if (code === CLOSED.SILENT) {
      if (document.hidden) connectWhenSeen();
      else connect();
    } else if (code === CLOSED.FULL) {
      $("status").textContent = t("webapp-full");
      setTimeout(connect, FULL_RETRY_MS);
    } else {
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 5000);
    }
  }

  function connectWhenSeen() {
    const seen = () => {
      if (document.hidden || socket) return;
      document.removeEventListener("visibilitychange", seen);
      connect();
    };
    document.addEventListener("visibilitychange", seen);
  }

  // While the page is visible its player's hand message in the chat waits (the server's
  // presence.py): say «here» now and then, even while only watching; «away» when hidden.
  // How often: the server says in its "hello" (a third of its idle time). Any word the
  // page sends counts as «here», so a move starts the wait for the next «here» again.
  // A server from before the "hello"'s interval says nothing: its 60 s idle time wants 20 s.
  const HERE_EVERY_BEFORE_HELLO = 20;
  let hereTimer = null;
  let hereEvery = HERE_EVERY_BEFORE_HELLO;

  function presence() {
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    socket.send(JSON.stringify({ type: document.hidden ? "away" : "here" }));
  }

  document.addEventListener("visibilitychange", presence);
  if (tg && tg.onEvent) {
    tg.onEvent("activated", presence);
    tg.onEvent("deactivated", () => {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send('{"type":"away"}');
    });
  }

  function sayHereEvery(seconds) {
    hereEvery = seconds > 0 ? seconds : HERE_EVERY_BEFORE_HELLO;
    sayHereLater();
  }

  function sayHereLater() {
    clearInterval(hereTimer);
    hereTimer = setInterval(() => { if (!document.hidden) presence(); }, hereEvery * 1000);
  }

  function receive(message) {
    if (message.type === "hello") {
      texts = message.texts;
      document.documentElement.lang = message.lang || "ru";
      document.title = t("webapp-title");
      $("options-open").setAttribute("aria-label", t("webapp-options"));
      if (!state) $("status").textContent = t("webapp-connecting");
      sayHereEvery(message.here_every);
    } else if (message.type === "state") {
      // An older position of the same game comes late: keep the newer one. (A new game in
      // the chat may start from a lower version, if the old one had expired.)
      if (state && message.game === state.game && message.version < state.version) return;
      state = message;
      drawSoon();
    } else if (message.type === "answer" && message.text) {
      frame.buzz("refused");
      notice(message.text);
    }
  }

  // A new position is drawn at the next frame, the newest of those received by then: a
  // page that falls behind skips to it. A hidden page (no frames) draws it at once.
  function drawSoon() {
    if (document.hidden) {
      render(true);
      return;
    }
    if (frameAsked) return;
    frameAsked = true;
    requestAnimationFrame(() => {
      frameAsked = false;
      render(true);
    });
  }

  // The page's id for one tap: a move sent again after a reconnect is played once.
  const tapId = () => Math.random().toString(36).slice(2) + Date.now().toString(36);

  function say(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN || !state) return;
    frame.buzz("move");
    socket.send(JSON.stringify({ ...message, id: tapId() }));
    sayHereLater();
  }

  function send(action) {
    say({ type: "move", game: state.game, moves: state.moves, act: action.act });
  }

  // The dealer names the trump before the deal (R-TRUMP-1): the chat's suit button's code.
  const nameTrump = (suit) => say({ type: "trump", game: state.game, op: suit.op });
  // «Сыграть ещё» under a finished game: a new lobby with the same players, as in the chat.
  const playAgain = () => say({ type: "again", game: state.game });

  function notice(text) {
    const node = $("notice");
    node.textContent = text;
    node.hidden = false;
    clearTimeout(notice.timer);
    notice.timer = setTimeout(() => { node.hidden = true; }, 4000);
    if (tg && tg.showAlert && !tg.isStub) tg.showAlert(text);
  }

  // -- drawing ---------------------------------------------------------------------------------

  // ``moved``: a new position (its cards slide from where they were); else the same one
  // drawn again (a card raised, the options, the screen turned).
  function render(moved) {
    if (!state) return;
    window.DurakMotion.settle();
    const before = moved && drawn ? window.DurakMotion.snapshot() : null;
    hands.refresh();
    const view = { ...hands.view(), t, label, order: prefs.get("order"), size: prefs.get("size") };
    window.DurakTable.draw(state, view);
    $("status").textContent = statusLine(state);
    renderControls(state);
    frame.backButton(optionsOpen() ? closeOptions : hands.picking() ? () => hands.cancel() : null);
    if (moved) window.DurakMotion.play(before, drawn, state);
    drawn = state;
  }

  function statusLine(s) {
    if (s.stopped) return t("webapp-stopped");
    if (s.phase === "lobby") return s.naming ? s.naming.text : t("webapp-lobby");
    if (s.finished || s.phase === "finished") {
      return s.team_lost ? t("webapp-finished") + " " + s.team_lost : t("webapp-finished");
    }
    if (hands.picking()) return t("webapp-pick-target");
    return s.status || "";
  }

  const actions = () => (state && state.actions) || [];

  // The big decisions (take, pass, believe, doubt; play again at the end) on Telegram's own
  // bottom buttons where the client has them; everything else, and those where it has not,
  // as the page's own buttons.
  function renderControls(s) {
    const controls = $("controls");
    controls.replaceChildren();
    const button = (text, run, extra) => element("button", {
      class: "control" + (extra.class ? " " + extra.class : ""), "aria-label": text, text, type: "button",
      "data-act": extra.act || null, "data-op": extra.op || null, onclick: run,
    });
    const big = [];
    for (const action of actions()) {
      const words = { take: t("btn-take"), pass: t(s.pass_label || "btn-pass"), believe: t("btn-believe"), doubt: t("btn-doubt") }[action.kind];
      if (words) big.push({ text: words, run: () => send(action), act: action.act, class: action.kind });
    }
    if ((s.finished || s.phase === "finished") && !s.stopped && s.players) {
      big.push({ text: t("btn-again"), run: playAgain, class: "again" });
    }
    for (const action of actions()) {
      if (action.kind === "transfer") {
        controls.append(button("↪️ " + t("webapp-transfer") + " " + label(action.cards[0]), () => send(action), { act: action.act, class: "combo" }));
      } else if ((action.kind === "attack" || action.kind === "throw") && action.cards.length > 1) {
        controls.append(button(action.cards.map(label).join("+"), () => send(action), { act: action.act, class: "combo" }));
      } else if (action.kind === "exchange") {
        controls.append(button(action.label, () => send(action), { act: action.act, class: "exchange" }));
      }
    }
    if (!frame.bottomButtons(big)) {
      for (const b of big) controls.append(button(b.text, b.run, b));
    }
    if (hands.picking()) controls.append(button(t("webapp-cancel"), () => hands.cancel(), { class: "cancel" }));
    if ((s.suits || []).length) controls.append(suitButtons(s.suits, button));
  }

  function suitButtons(suits, button) {
    return element("div", { class: "suits", role: "group", "aria-label": t("webapp-suits") },
      ...suits.map((suit) => button(suit.label, () => nameTrump(suit), { op: suit.op, class: "suit" })));
  }

  // -- the options ------------------------------------------------------------------------------

  const optionsOpen = () => !$("options").hidden;

  function openOptions() {
    const dialog = $("options");
    const choice = (name, value, words) => element("label", { class: "choice" },
      element("input", {
        type: "radio", name, value, checked: prefs.get(name) === value,
        onclick: () => { prefs.set(name, value); render(false); },
      }), element("span", { text: words }));
    const group = (name, title, words) => element("fieldset", {},
      element("legend", { text: title }), ...prefs.choices(name).map((value, i) => choice(name, value, words[i])));
    dialog.replaceChildren(
      element("h2", { id: "options-title", text: t("webapp-options") }),
      group("order", t("webapp-sort"), [t("webapp-sort-suit"), t("webapp-sort-rank")]),
      group("deck", t("webapp-deck"), [t("webapp-deck-two"), t("webapp-deck-four")]),
      group("size", t("webapp-size"), [t("webapp-size-normal"), t("webapp-size-large")]),
      element("button", { class: "control", type: "button", "aria-label": t("webapp-close"), text: t("webapp-close"), onclick: closeOptions }),
    );
    dialog.hidden = false;
    render(false);
  }

  function closeOptions() {
    $("options").hidden = true;
    render(false);
  }

  // -- start ----------------------------------------------------------------------------------

  frame.start();
  hands.attach($("app"));
  $("options-open").addEventListener("click", () => (optionsOpen() ? closeOptions() : openOptions()));
  setInterval(window.DurakTable.tick, 1000);
  prefs.load(() => render(false));
  connect();
})();
