// The replay page: a finished game step by step, as the server sends it to one who played it
// (GET api/replay, bot/webapp/replay.py), and the deck's check in the browser.
"use strict";

// The deck from its seed, exactly as docs/FAIR-DEAL.md says, with the browser's own SHA-256
// (WebCrypto): a second implementation beside the engine's (engine/deck_seed.py), so that
// neither is checked only by itself. Exposed as window.DurakDeck.
const DurakDeck = (function () {
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const LOWEST = { 24: "9", 36: "6", 52: "2" }; // step 3: each suit from the deck's lowest rank
  const HAND = 6; // R-DEAL-2: everybody holds six
  const SPAN = 1n << 64n;

  function bytesOfHex(text) {
    if (typeof text !== "string" || !/^[0-9a-f]{64}$/.test(text)) throw new Error("not a seed");
    const bytes = new Uint8Array(text.length / 2);
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
    return bytes;
  }

  function hexOf(bytes) {
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  function joined(...parts) {
    const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) { all.set(part, at); at += part.length; }
    return all;
  }

  async function sha256(bytes) {
    return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  }

  // Step 2: SHA-256 over the seed's 32 bytes and the game id's UTF-8 bytes.
  async function commitment(seed, game) {
    return hexOf(await sha256(joined(bytesOfHex(seed), new TextEncoder().encode(game))));
  }

  // Step 3: ♠ ♥ ♦ ♣, each from the deck's lowest rank up to the ace.
  function inCardOrder(deck) {
    const low = RANKS.indexOf(LOWEST[deck]);
    if (low < 0) throw new Error("not a deck: " + deck);
    const cards = [];
    for (const suit of "SHDC") for (const rank of RANKS.slice(low)) cards.push(rank + suit);
    return cards;
  }

  // Step 4: block k is SHA-256(seed ‖ "deck" ‖ k as 4 bytes big-endian), read as 8-byte
  // big-endian unsigned numbers, four a block.
  function numbers(seed) {
    const label = new TextEncoder().encode("deck");
    let counter = 0;
    let block = null;
    let at = 32;
    return async function next() {
      if (at === 32) {
        const k = new Uint8Array(4);
        new DataView(k.buffer).setUint32(0, counter, false);
        counter += 1;
        block = await sha256(joined(seed, label, k));
        at = 0;
      }
      let u = 0n;
      for (let i = 0; i < 8; i += 1) u = (u << 8n) | BigInt(block[at + i]);
      at += 8;
      return u;
    };
  }

  // Step 5: Fisher–Yates from the last place down; a number at or above the largest multiple
  // of m not above 2^64 is skipped, so that every place is equally likely. Top card first.
  async function shuffledDeck(seed, deck) {
    const cards = inCardOrder(deck);
    const next = numbers(bytesOfHex(seed));
    for (let i = cards.length - 1; i > 0; i -= 1) {
      const places = BigInt(i + 1);
      const limit = SPAN - (SPAN % places);
      let u = await next();
      while (u >= limit) u = await next();
      const j = Number(u % places);
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
    return cards;
  }

  // Step 6 under "trump: turned": one card at a time from the top, the dealer's left first,
  // until everybody holds six; the next card turned up under the stock (drawn last); with
  // none left, the dealer's last card shows the trump (R-DEAL-4).
  function dealTurned(order, players, dealer) {
    const hands = Array.from({ length: players }, () => []);
    const dealt = HAND * players;
    let seat = dealer;
    for (let index = 0; index < dealt; index += 1) {
      seat = (seat + 1) % players;
      hands[seat].push(order[index]);
    }
    if (order.length > dealt) {
      const turned = order[dealt];
      return { hands, stock: order.slice(dealt + 1).concat([turned]), trump: turned.slice(-1) };
    }
    return { hands, stock: [], trump: order[dealt - 1].slice(-1) };
  }

  const same = (a, b) => a.length === b.length && a.every((card, i) => card === b[i]);
  const sorted = (cards) => [...cards].sort();

  // The record's deal ({game, seed, commitment, players, dealer, hands, stock, trump, rules})
  // against the seed: {ok: true}, or what differs ({what, ...}); "variant" for a trump
  // chosen otherwise than turned up, which is not dealt here rather than guessed.
  async function check(deal) {
    const rules = deal.rules || {};
    if ((rules.trump || "turned") !== "turned") return { ok: false, what: "variant" };
    const expected = await commitment(deal.seed, deal.game);
    if (expected !== String(deal.commitment).toLowerCase()) {
      return { ok: false, what: "commitment", expected, recorded: deal.commitment };
    }
    const order = await shuffledDeck(deal.seed, rules.deck || 36);
    const names = deal.players;
    const dealer = names.indexOf(deal.dealer);
    if (dealer < 0) throw new Error("no dealer");
    const dealt = dealTurned(order, names.length, dealer);
    // In the blind family a hand is in slot order, the order dealt (R-BLIND-2); else sorted.
    const slots = Boolean(rules.blind) && rules.blind !== "off";
    for (const [seat, name] of names.entries()) {
      const mine = slots ? dealt.hands[seat] : sorted(dealt.hands[seat]);
      const theirs = slots ? deal.hands[name] : sorted(deal.hands[name]);
      if (!same(mine, theirs)) return { ok: false, what: "hand", name, cards: mine, recorded: theirs };
    }
    if (!same(dealt.stock, deal.stock)) {
      return { ok: false, what: "stock", cards: dealt.stock, recorded: deal.stock };
    }
    if (dealt.trump !== deal.trump) {
      return { ok: false, what: "trump", expected: dealt.trump, recorded: deal.trump };
    }
    return { ok: true };
  }

  return { commitment, inCardOrder, shuffledDeck, dealTurned, check };
})();
window.DurakDeck = DurakDeck;

(function () {
  const tg = (window.Telegram && window.Telegram.WebApp) || null;
  const { cardFace, cardBack, SUITS } = window.DurakCards;
  const { add, element, applyTheme } = window.DurakPage;
  const query = new URLSearchParams(location.search);
  const initData = tg ? tg.initData : "";

  let replay = null;
  let texts = {};
  let at = 0; // the step shown, from 0 (the deal)

  const $ = (id) => document.getElementById(id);
  const t = (id) => texts[id] || "";
  // A word with what only the page found out: its "{name}"s filled in.
  const filled = (id, values) => t(id).replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));

  // -- cards ---------------------------------------------------------------------------------

  const label = (card) => (replay.ranks[card.slice(0, -1)] || card.slice(0, -1)) + SUITS[card.slice(-1)];
  const words = (cards) => cards.map(label).join(" ");

  function cardImage(card, extraClass, name) {
    return element("span", {
      class: "card" + (extraClass ? " " + extraClass : ""), role: "img",
      "aria-label": name || label(card), "data-card": card,
    }, cardFace(card, label(card)));
  }

  function backImage(extraClass, name) {
    return element("span", {
      class: "card back-card" + (extraClass ? " " + extraClass : ""), role: "img",
      "aria-label": name || t("webapp-face-down"),
    }, cardBack());
  }

  // -- a step --------------------------------------------------------------------------------

  function go(step) {
    const last = replay.steps.length - 1;
    at = Math.max(0, Math.min(last, step));
    render(replay.steps[at]);
  }

  function render(s) {
    $("app").dataset.step = String(at);
    $("status").textContent = s.title;
    $("story").textContent = s.lines.join("\n");
    renderPiles(s);
    renderSeats(s);
    renderTable(s);
    renderHand(s);
    renderPosition();
  }

  function renderPiles(s) {
    const trump = $("trump"), stock = $("stock"), discard = $("discard");
    const suit = SUITS[s.trump];
    trump.replaceChildren();
    add(trump,
      s.trump_card ? cardImage(s.trump_card, "small") : element("span", { class: "suit big", text: suit }),
      element("span", { class: "caption", text: t("webapp-trump") + " " + suit }));
    trump.setAttribute("aria-label", t("webapp-trump") + " " + suit);
    stock.replaceChildren();
    add(stock,
      s.stock ? element("span", { class: "card small", role: "img", "aria-label": t("webapp-stock") }, cardBack()) : null,
      element("span", { class: "caption", text: s.stock ? t("webapp-stock") + ": " + s.stock : t("webapp-stock-empty") }));
    discard.replaceChildren(element("span", { class: "caption", text: t("webapp-discard") + ": " + s.discard }));
  }

  function renderSeats(s) {
    const seats = $("seats");
    seats.replaceChildren();
    s.players.forEach((seat, index) => {
      const player = replay.players[index];
      const you = index === replay.you;
      const name = player.name + (you ? " (" + t("webapp-you") + ")" : "");
      const part = seat.durak ? t("webapp-durak") : seat.role;
      const count = seat.place || seat.cards_text;
      const row = !you && seat.hand ? seat.hand : null;
      seats.append(element("div", {
        class: "seat" + (seat.acting ? " acting" : "") + (you ? " you" : "") + (seat.durak ? " durak" : "")
          + (s.actor === index ? " actor" : ""),
        "aria-label": [name, player.level_text, count, part].filter(Boolean).join(", "),
        "data-seat": index,
      },
      element("div", { class: "seat-line" },
        element("span", { class: "name", text: name }),
        element("span", { class: "count", text: count })),
      player.level_text ? element("span", { class: "rating", text: player.level_text }) : null,
      part ? element("span", { class: "role", text: part }) : null,
      row && row.length ? element("div", { class: "row", role: "group", "aria-label": t("webapp-row") },
        ...row.map((card) => cardImage(card, "tiny"))) : null));
    });
  }

  function renderTable(s) {
    const table = $("table");
    table.replaceChildren();
    table.setAttribute("aria-label", t("webapp-table"));
    if (!s.table.length && !s.face_down_attack && !s.finished) {
      table.append(element("p", { class: "hint", text: t("webapp-table-empty") }));
    }
    s.table.forEach(([attack, cover], index) => {
      const attackDown = s.face_down_attacks.includes(index);
      table.append(element("div", { class: "pair" },
        attackDown ? cardImage(attack, "face-down", label(attack) + ", " + t("webapp-laid-face-down")) : cardImage(attack),
        coverImage(cover, s.face_down_covers.includes(index))));
    });
    // "chinese": the opening lies face down until it is answered (R-CHI-2).
    if (s.face_down_attack) table.append(element("div", { class: "pair" }, backImage()));
  }

  function coverImage(cover, faceDown) {
    if (!faceDown) return cover ? cardImage(cover, "cover") : null;
    if (!cover) return backImage("cover");
    return cardImage(cover, "cover face-down", label(cover) + ", " + t("webapp-laid-face-down"));
  }

  function renderHand(s) {
    const hand = $("hand");
    hand.replaceChildren();
    hand.setAttribute("aria-label", t("webapp-hand"));
    for (const card of s.hand) hand.append(cardImage(card));
    for (const name of s.hand_backs) hand.append(backImage("", name));
  }

  // -- moving through the game ------------------------------------------------------------------

  // The buttons' arrows are drawn, not written: ⏮ and ⏭ are in hardly any font but the
  // emoji ones. Their words («⏮ В начало») stay the buttons' accessible names.
  const ARROWS = {
    first: "M1 2h2v12H1z M13 2v12L4 8z",
    back: "M12 2v12L3 8z",
    forward: "M2 2v12l9-6z",
    last: "M11 2h2v12h-2z M1 2v12l9-6z",
  };
  const ARROW_SIGNS = /[⏮◀▶⏭]\uFE0F?/g;

  function arrow(id) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 14 16");
    svg.setAttribute("class", "arrow");
    svg.setAttribute("aria-hidden", "true");
    const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
    path.setAttribute("d", ARROWS[id]);
    svg.append(path);
    return svg;
  }

  function buildControls() {
    const controls = $("controls");
    const button = (id, name, to) => {
      const words = element("span", { text: t(name).replace(ARROW_SIGNS, "").trim() });
      const before = id === "first" || id === "back";
      return element("button", {
        class: "control step", id, "aria-label": t(name), onclick: () => go(to()),
      }, before ? arrow(id) : words, before ? words : arrow(id));
    };
    controls.replaceChildren(
      button("first", "replay-page-first", () => 0),
      button("back", "replay-page-back", () => at - 1),
      button("forward", "replay-page-forward", () => at + 1),
      button("last", "replay-page-last", () => replay.steps.length - 1),
    );
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.target.id === "slider") return;
      const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: replay.steps.length - 1 }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      go(to);
    });
  }

  // One tick a step; the review's moments marked above theirs, each a button with its words.
  function buildTimeline() {
    const steps = replay.steps.length;
    const timeline = $("timeline");
    const marked = new Map(replay.moments.map((moment) => [moment.step, moment]));
    const ticks = element("div", { class: "ticks", "aria-hidden": "true" },
      ...replay.steps.map((step, index) => element("span", {
        class: "tick" + (marked.has(index) ? " marked" : ""), "data-step": index,
        onclick: () => go(index),
      })));
    // Each marker shows its moment's number in the list below (1: the costliest).
    const markers = element("div", { class: "markers" },
      ...replay.moments.map((moment, number) => {
        const marker = element("button", {
          class: "marker", "aria-label": moment.text, title: moment.text, "data-step": moment.step,
          text: String(number + 1), onclick: () => go(moment.step),
        });
        // Over its tick: set in the style object, which the page's CSP allows (an inline
        // style attribute it does not).
        marker.style.left = ((moment.step + 0.5) / steps) * 100 + "%";
        return marker;
      }));
    const slider = element("input", {
      id: "slider", type: "range", min: 0, max: steps - 1, step: 1, value: 0,
      "aria-label": t("replay-page-timeline"),
    });
    slider.addEventListener("input", () => go(Number(slider.value)));
    timeline.replaceChildren(markers, ticks, slider);
    timeline.setAttribute("aria-label", t("replay-page-timeline"));
    stackMarkers();
    window.addEventListener("resize", stackMarkers);
  }

  // Moments a few steps apart would cover each other's marker: each goes on the lowest row
  // where it clears the markers already there, at the timeline's width now.
  const MARKER_ROOM = 26; // pixels: a marker's width and a gap
  const MARKER_ROW = 24;

  function stackMarkers() {
    const width = $("timeline").clientWidth;
    const steps = replay.steps.length;
    const rows = []; // per row, the right edge of its last marker
    const placed = [...document.querySelectorAll("#timeline .marker")]
      .map((marker) => ({ marker, x: ((Number(marker.dataset.step) + 0.5) / steps) * width }))
      .sort((a, b) => a.x - b.x);
    for (const { marker, x } of placed) {
      let row = rows.findIndex((right) => right <= x - MARKER_ROOM / 2);
      if (row < 0) row = rows.push(0) - 1;
      rows[row] = x + MARKER_ROOM / 2;
      marker.style.top = row * MARKER_ROW + "px";
    }
    $("timeline").style.paddingTop = Math.max(1, rows.length) * MARKER_ROW + "px";
  }

  function buildMoments() {
    const moments = $("moments");
    moments.replaceChildren();
    if (!replay.moments.length) return;
    add(moments,
      element("h2", { text: t("replay-page-moments") }),
      element("ol", {}, ...replay.moments.map((moment, number) => element("li", {},
        element("button", {
          class: "moment", "aria-label": moment.text, "data-step": moment.step,
          onclick: () => go(moment.step),
        },
        element("span", { class: "number", "aria-hidden": "true", text: String(number + 1) }),
        element("span", { text: moment.text }))))));
  }

  function renderPosition() {
    const s = replay.steps[at];
    const slider = $("slider");
    slider.value = String(at);
    slider.setAttribute("aria-valuetext", s.title);
    for (const tick of document.querySelectorAll(".tick")) {
      tick.classList.toggle("now", Number(tick.dataset.step) === at);
    }
    for (const node of document.querySelectorAll("#timeline .marker, #moments .moment")) {
      if (Number(node.dataset.step) === at) node.setAttribute("aria-current", "step");
      else node.removeAttribute("aria-current");
    }
    $("first").disabled = $("back").disabled = at === 0;
    $("forward").disabled = $("last").disabled = at === replay.steps.length - 1;
  }

  // -- the deck ----------------------------------------------------------------------------------

  async function checkDeck() {
    const deck = $("deck");
    const deal = replay.deal;
    const full = element("code", { class: "commitment", text: deal.commitment });
    if (!replay.hands_shown || !deal.seed) {
      deck.replaceChildren(t("replay-page-deck-hidden") + " " + t("replay-page-deck-promised"), full);
      return;
    }
    if (!(window.crypto && crypto.subtle)) {
      deck.replaceChildren(t("replay-page-deck-unavailable"), full);
      return;
    }
    deck.replaceChildren(t("replay-page-deck-checking"));
    let line;
    try {
      const found = await DurakDeck.check(deal);
      line = found.ok ? t("replay-page-deck-ok") : differs(found);
      deck.dataset.ok = String(found.ok);
    } catch (error) {
      line = t("replay-page-deck-malformed");
      deck.dataset.ok = "false";
    }
    deck.replaceChildren(line, full);
  }

  function differs(found) {
    switch (found.what) {
      case "commitment":
        return filled("replay-page-deck-commitment", {
          expected: found.expected.slice(0, 6), recorded: String(found.recorded).slice(0, 6),
        });
      case "hand":
        return filled("replay-page-deck-hand", {
          name: found.name, cards: words(found.cards), recorded: words(found.recorded),
        });
      case "stock":
        return filled("replay-page-deck-stock", { cards: words(found.cards), recorded: words(found.recorded) });
      case "trump":
        return filled("replay-page-deck-trump", { expected: SUITS[found.expected], recorded: SUITS[found.recorded] });
      default:
        return t("replay-page-deck-variant");
    }
  }

  // -- start -------------------------------------------------------------------------------------

  async function load() {
    const url = new URL("api/replay", location.href);
    url.search = new URLSearchParams({ chat: query.get("chat") || "", game: query.get("game") || "" }).toString();
    let response;
    let body = null;
    try {
      response = await fetch(url, { headers: { Authorization: "tma " + initData }, cache: "no-store" });
      body = await response.json();
    } catch (error) {
      body = null;
    }
    if (!response || !response.ok || !body || !body.steps) {
      // The server's own words when it has them (its 404 is in the viewer's language).
      $("status").textContent = (body && body.text) || "⚠️ " + (response ? response.status : "");
      $("app").dataset.failed = response ? String(response.status) : "network";
      return;
    }
    replay = body;
    texts = body.texts;
    document.documentElement.lang = body.lang || "ru";
    document.title = t("replay-page-title");
    if (!replay.hands_shown) {
      $("hands-note").textContent = t("replay-page-hands-hidden");
      $("hands-note").hidden = false;
    }
    buildControls();
    buildTimeline();
    buildMoments();
    go(0);
    await checkDeck();
  }

  if (tg) {
    tg.ready();
    if (tg.expand) tg.expand();
    if (tg.onEvent) tg.onEvent("themeChanged", applyTheme);
  }
  applyTheme(tg);
  load();
})();
