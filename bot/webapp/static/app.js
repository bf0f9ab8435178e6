// The Mini App's page: draws the state the server sends over the socket, and sends the
// moves the player taps. Every decision about what is legal is the server's: the page only
// enables what the state's "actions" list (the chat keyboard's own buttons) allows.
"use strict";

(function () {
  const tg = (window.Telegram && window.Telegram.WebApp) || null;
  const { cardFace, cardBack } = window.DurakCards;
  const { add, element, applyTheme } = window.DurakPage;
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
  let state = null;
  let picked = null; // a hand card chosen to cover with, while its targets are offered
  let pickedSlot = null; // the same for a slot of a hand its player may not see (from 1)
  let socket = null;
  let retry = 250;
  let clock = null;

  const $ = (id) => document.getElementById(id);
  const t = (id) => texts[id] || "";

  // -- Telegram: theme, language, haptics ------------------------------------------------

  function buzz(kind) {
    if (tg && tg.HapticFeedback) {
      if (kind === "error") tg.HapticFeedback.notificationOccurred("error");
      else tg.HapticFeedback.impactOccurred("light");
    }
  }

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
      if (state) render(); // the status line again, in place of why the socket had closed
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
      if (!state) $("status").textContent = t("webapp-connecting");
      sayHereEvery(message.here_every);
    } else if (message.type === "state") {
      // An older position of the same game comes late: keep the newer one. (A new game in
      // the chat may start from a lower version, if the old one had expired.)
      if (state && message.game === state.game && message.version < state.version) return;
      state = message;
      if (picked && !targetsOf(picked).length) picked = null;
      if (pickedSlot !== null && !coversOf(pickedSlot).length) pickedSlot = null;
      render();
    } else if (message.type === "answer" && message.text) {
      buzz("error");
      notice(message.text);
    }
  }

  // The page's id for one tap: a move sent again after a reconnect is played once.
  const tapId = () => Math.random().toString(36).slice(2) + Date.now().toString(36);

  function send(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN || !state) return;
    buzz("move");
    picked = null;
    pickedSlot = null;
    socket.send(JSON.stringify({
      type: "move", game: state.game, moves: state.moves, act: action.act, id: tapId(),
    }));
    sayHereLater();
  }

  // The dealer names the trump before the deal (R-TRUMP-1): the chat's suit button's code.
  function nameTrump(suit) {
    if (!socket || socket.readyState !== WebSocket.OPEN || !state) return;
    buzz("move");
    socket.send(JSON.stringify({ type: "trump", game: state.game, op: suit.op, id: tapId() }));
    sayHereLater();
  }

  function notice(text) {
    const node = $("notice");
    node.textContent = text;
    node.hidden = false;
    clearTimeout(notice.timer);
    notice.timer = setTimeout(() => { node.hidden = true; }, 4000);
    if (tg && tg.showAlert && !tg.isStub) tg.showAlert(text);
  }

  // -- what the state allows -----------------------------------------------------------------

  const actions = () => (state && state.actions) || [];
  const singlesOf = (card) => actions().filter(
    (a) => (a.kind === "attack" || a.kind === "throw") && a.cards.length === 1 && a.cards[0] === card);
  const targetsOf = (card) => actions().filter((a) => a.kind === "defend" && a.cards[0] === card);
  // The blind family (RULES.md section 14): a hand its player may not see is played by slot
  // (from 1). An opening or a throw-in names the slot; a cover, the slot and the attack card
  // it is laid on (in "chinese" none: the attack card lies face down).
  const slotPlaysOf = (slot) => actions().filter(
    (a) => (a.kind === "attack_slot" || a.kind === "throw_slot") && a.slot === slot);
  const coversOf = (slot) => actions().filter((a) => a.kind === "defend_slot" && a.slot === slot);

  function tapHand(card) {
    if (picked === card) { picked = null; render(); return; }
    const singles = singlesOf(card);
    const covers = targetsOf(card);
    if (singles.length) send(singles[0]);
    else if (covers.length === 1) send(covers[0]);
    else if (covers.length > 1) { picked = card; pickedSlot = null; render(); }
  }

  function tapBack(slot) {
    if (pickedSlot === slot) { pickedSlot = null; render(); return; }
    const plays = slotPlaysOf(slot);
    const covers = coversOf(slot);
    if (plays.length) send(plays[0]);
    else if (covers.length === 1) send(covers[0]);
    else if (covers.length > 1) { pickedSlot = slot; picked = null; render(); }
  }

  function tapTable(card) {
    const cover = picked
      ? targetsOf(picked).find((a) => a.cards[1] === card)
      : coversOf(pickedSlot).find((a) => a.cards[0] === card);
    if (cover) send(cover);
  }

  // The attack cards a pick may cover now.
  function targets() {
    if (picked) return targetsOf(picked).map((a) => a.cards[1]);
    if (pickedSlot !== null) return coversOf(pickedSlot).map((a) => a.cards[0]);
    return [];
  }

  // -- drawing ---------------------------------------------------------------------------------

  function label(card) { return state.labels[card] || card; }

  function cardButton(card, enabled, onTap, extraClass) {
    return element("button", {
      class: "card" + (extraClass ? " " + extraClass : ""), "aria-label": label(card),
      "data-card": card, disabled: !enabled, onclick: enabled ? () => onTap(card) : null,
    }, cardFace(card, label(card)));
  }

  function cardImage(card, extraClass, name) {
    return element("span", {
      class: "card" + (extraClass ? " " + extraClass : ""), role: "img",
      "aria-label": name || label(card), "data-card": card,
    }, cardFace(card, label(card)));
  }

  // A card lying face down: no name of a card, only what it is.
  function backImage(extraClass, name) {
    return element("span", {
      class: "card back-card" + (extraClass ? " " + extraClass : ""), role: "img",
      "aria-label": name || t("webapp-face-down"),
    }, cardBack());
  }

  function render() {
    const s = state;
    $("app").dataset.version = String(s.version); // which position the page shows
    $("status").textContent = statusLine(s);
    renderPiles(s);
    renderSeats(s);
    renderTable(s);
    renderHand(s);
    renderControls(s);
  }

  function statusLine(s) {
    if (s.stopped) return t("webapp-stopped");
    if (s.phase === "lobby") return s.naming ? s.naming.text : t("webapp-lobby");
    if (s.finished || s.phase === "finished") {
      return s.team_lost ? t("webapp-finished") + " " + s.team_lost : t("webapp-finished");
    }
    if (picked || pickedSlot !== null) return t("webapp-pick-target");
    return s.status || "";
  }

  function renderPiles(s) {
    const trump = $("trump"), stock = $("stock"), discard = $("discard");
    trump.replaceChildren();
    stock.replaceChildren();
    discard.replaceChildren();
    if (!s.players || s.phase === "lobby") return;
    const suit = window.DurakCards.SUITS[s.trump];
    add(trump,
      s.trump_card ? cardImage(s.trump_card, "small") : element("span", { class: "suit big", text: suit }),
      element("span", { class: "caption", text: t("webapp-trump") + " " + suit }),
    );
    trump.setAttribute("aria-label", t("webapp-trump") + " " + suit);
    add(stock,
      s.stock ? element("span", { class: "card small", role: "img", "aria-label": t("webapp-stock") }, cardBack()) : null,
      element("span", { class: "caption", text: s.stock ? t("webapp-stock") + ": " + s.stock : t("webapp-stock-empty") }),
    );
    add(discard, element("span", { class: "caption", text: t("webapp-discard") + ": " + s.discard }));
  }

  function renderSeats(s) {
    const seats = $("seats");
    seats.replaceChildren();
    (s.players || []).forEach((player, index) => {
      const you = index === s.seat;
      const parts = [player.name + (you ? " (" + t("webapp-you") + ")" : "")];
      const line = element("div", { class: "seat-line" },
        element("span", { class: "name", text: parts[0] }),
        player.cards_text !== undefined ? element("span", { class: "count", text: player.place || player.cards_text }) : null,
      );
      const role = player.durak ? t("webapp-durak") : player.role;
      const team = player.team ?? null; // R-TEAM-1: the team's number, null without teams
      const seat = element("div", {
        class: "seat" + (player.acting ? " acting" : "") + (you ? " you" : "") + (player.durak ? " durak" : "")
          + (team === null ? "" : " team team-" + team),
        "aria-label": [parts[0], player.rating_text, player.team_text, player.place || player.cards_text, role, player.acting ? player.acting_text || t("webapp-acting") : null].filter(Boolean).join(", "),
        "data-seat": index,
        "data-team": team,
      }, line,
      player.rating_text ? element("span", { class: "rating", text: player.rating_text }) : null,
      player.team_text ? element("span", { class: "team-name", text: player.team_text }) : null,
      role ? element("span", { class: "role", text: role }) : null,
      player.acting && s.deadline ? element("span", { class: "clock", "data-deadline": s.deadline }) : null,
      player.row ? seatRow(player.row) : null);
      seats.append(seat);
    });
    tick();
  }

  // R-REV-1: another player's hand, seen face up in slot order (R-BLIND-2); small cards.
  function seatRow(row) {
    return element("div", { class: "row", role: "group", "aria-label": t("webapp-row") },
      ...row.map((card) => (card ? cardImage(card, "tiny") : backImage("tiny"))));
  }

  function renderTable(s) {
    const table = $("table");
    table.replaceChildren();
    table.setAttribute("aria-label", t("webapp-table"));
    const pairs = s.table || [];
    if (!pairs.length && !s.face_down_attack && s.phase === "playing" && !s.finished) {
      table.append(element("p", { class: "hint", text: t("webapp-table-empty") }));
    }
    const covering = targets();
    const down = s.face_down_covers || [];
    pairs.forEach(([attack, cover], index) => {
      const target = covering.includes(attack);
      table.append(element("div", { class: "pair" },
        target ? cardButton(attack, true, tapTable, "target") : cardImage(attack),
        coverImage(cover, down.includes(index))));
    });
    // "chinese": the opening lies face down until it is answered (R-CHI-2).
    if (s.face_down_attack) table.append(element("div", { class: "pair" }, backImage()));
  }

  // A cover: face up; lying face down ("doubt", R-DOUBT-2), a back, or on the page of the
  // defender who laid it its face, marked as lying face down.
  function coverImage(cover, faceDown) {
    if (!faceDown) return cover ? cardImage(cover, "cover") : null;
    if (!cover) return backImage("cover");
    return cardImage(cover, "cover face-down", label(cover) + ", " + t("webapp-laid-face-down"));
  }

  function renderHand(s) {
    const hand = $("hand");
    hand.replaceChildren();
    if (s.seat === null || s.seat === undefined) {
      if (s.phase === "playing") hand.append(element("p", { class: "hint", text: t("webapp-watching") }));
      return;
    }
    hand.setAttribute("aria-label", t("webapp-hand"));
    for (const card of s.hand || []) {
      const playable = singlesOf(card).length > 0 || targetsOf(card).length > 0;
      hand.append(cardButton(card, playable, tapHand, picked === card ? "picked" : ""));
    }
    // A hand its player may not see ("reversed", "chinese"): a back for each slot.
    const backs = s.hand_backs || [];
    let playable = false;
    backs.forEach((name, index) => {
      const slot = index + 1;
      const enabled = slotPlaysOf(slot).length > 0 || coversOf(slot).length > 0;
      playable = playable || enabled;
      hand.append(element("button", {
        class: "card" + (pickedSlot === slot ? " picked" : ""), "aria-label": name,
        "data-slot": slot, disabled: !enabled, onclick: enabled ? () => tapBack(slot) : null,
      }, cardBack()));
    });
    if (playable) hand.append(element("p", { class: "hint", text: t("webapp-hand-unseen") }));
  }

  function renderControls(s) {
    const controls = $("controls");
    controls.replaceChildren();
    const button = (text, action, extraClass) => element("button", {
      class: "control" + (extraClass ? " " + extraClass : ""), "aria-label": text, text,
      "data-act": action ? action.act : null, onclick: () => (action ? send(action) : cancelPick()),
    });
    for (const action of actions()) {
      if (action.kind === "transfer") {
        controls.append(button("↪️ " + t("webapp-transfer") + " " + label(action.cards[0]), action));
      } else if ((action.kind === "attack" || action.kind === "throw") && action.cards.length > 1) {
        controls.append(button(action.cards.map(label).join("+"), action));
      }
    }
    for (const action of actions()) {
      if (action.kind === "exchange") controls.append(button(action.label, action, "exchange"));
      if (action.kind === "take") controls.append(button(t("btn-take"), action, "take"));
      if (action.kind === "pass") controls.append(button(t(s.pass_label || "btn-pass"), action, "pass"));
      // "doubt": the attacker judges the covers laid face down (R-DOUBT-3).
      if (action.kind === "believe") controls.append(button(t("btn-believe"), action, "believe"));
      if (action.kind === "doubt") controls.append(button(t("btn-doubt"), action, "doubt"));
    }
    if (picked || pickedSlot !== null) controls.append(button(t("webapp-cancel"), null, "cancel"));
    if ((s.suits || []).length) controls.append(suitButtons(s.suits));
  }

  function suitButtons(suits) {
    return element("div", { class: "suits", role: "group", "aria-label": t("webapp-suits") },
      ...suits.map((suit) => element("button", {
        class: "control suit", "aria-label": suit.label, text: suit.label, "data-op": suit.op,
        onclick: () => nameTrump(suit),
      })));
  }

  function cancelPick() { picked = null; pickedSlot = null; render(); }

  function tick() {
    for (const node of document.querySelectorAll(".clock")) {
      const left = Math.max(0, Math.round(Number(node.dataset.deadline) - Date.now() / 1000));
      node.textContent = "⏱ " + left;
    }
  }

  // -- start ----------------------------------------------------------------------------------

  if (tg) {
    tg.ready();
    if (tg.expand) tg.expand();
    if (tg.onEvent) tg.onEvent("themeChanged", applyTheme);
  }
  applyTheme(tg);
  clock = setInterval(tick, 1000);
  connect();
})();
