// Drawing the table like a card game's: the opponents around the felt, the stock with the
// trump across it, the discard, the bout's pairs, the player's own hand fanned at the
// bottom. Only drawing: what is legal and what a tap does come from app.js and play.js
// (``view``: the words, the player's options, what is picked and where it may go).
"use strict";

(function () {
  const { cardFace, cardBack, SUITS } = window.DurakCards;
  const { add, element } = window.DurakPage;
  const $ = (id) => document.getElementById(id);

  // -- where things go ------------------------------------------------------------------------

  // The seats around an ellipse in the round's box, clockwise from the bottom (where the
  // viewer sits): the next player sits at the viewer's left, the last at their right. A
  // spectator sees every seat, the first at the bottom. On a screen held sideways the
  // opponents sit along the far side only, leaving the felt's ends to the stock and the
  // discard.
  function seatSpots(seats, spectator, landscape) {
    const count = seats.length;
    if (spectator) {
      return seats.map((_, index) => spot(270 - (index * 360) / count));
    }
    if (count === 1) return [spot(90)];
    if (count === 2) return landscape ? [spot(120), spot(60)] : [spot(150), spot(30)];
    // From a little below the left end round the top to a little below the right end.
    const [from, to] = landscape ? [140, 40] : [196, -16];
    return seats.map((_, index) => spot(from - (index * (from - to)) / (count - 1)));
  }

  function spot(degrees) {
    const radians = (degrees * Math.PI) / 180;
    return { x: 50 + 50 * Math.cos(radians), y: 50 - 50 * Math.sin(radians) };
  }

  // A hand of ``count`` cards ``width`` wide in ``room`` pixels: the step from one card to
  // the next (overlapping once they no longer fit side by side) and a small turn each, so
  // that the hand looks held; twenty cards still fit a 360-pixel-wide phone. The outer
  // cards' turn swings their corners outwards and down: the spread leaves room for it.
  const PIVOT = 1.3; // the turn's centre, in card heights from the card's top (table.css)
  function fan(count, width, room) {
    const turn = count > 1 ? Math.min(3, 16 / count) : 0;
    const outer = ((turn * (count - 1)) / 2) * (Math.PI / 180);
    const swing = Math.ceil(PIVOT * width * 1.4 * Math.sin(outer));
    const step = count > 1 ? Math.min(width * 0.9, (room - 2 * swing - width) / (count - 1)) : 0;
    const spread = step * (count - 1) + width;
    const left = Math.max(swing, (room - spread) / 2);
    return Array.from({ length: count }, (_, index) => {
      const middle = index - (count - 1) / 2;
      return { left: left + index * step, turn: middle * turn, drop: middle * middle * turn * 0.05 };
    });
  }

  // The order of the player's hand: by suit with trumps last (as the chat's keyboard), or
  // by rank, trumps still last. Suits alternate colours: ♠ ♥ ♣ ♦.
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

  function sortHand(cards, trump, order) {
    const key = (card) => {
      const suit = card.slice(-1);
      const rank = RANKS.indexOf(card.slice(0, -1));
      const trumps = suit === trump ? 1 : 0;
      return order === "rank" ? [trumps, rank, SUIT_ORDER[suit]] : [trumps, SUIT_ORDER[suit], rank];
    };
    return [...cards].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    });
  }

  // -- cards ----------------------------------------------------------------------------------

  function cardButton(view, card, enabled, extraClass) {
    return element("button", {
      class: "card" + (extraClass ? " " + extraClass : ""), "aria-label": view.label(card),
      "data-card": card, disabled: !enabled, type: "button",
    }, cardFace(card, view.label(card)));
  }

  function cardImage(view, card, extraClass, name) {
    return element("span", {
      class: "card" + (extraClass ? " " + extraClass : ""), role: "img",
      "aria-label": name || view.label(card), "data-card": card,
    }, cardFace(card, view.label(card)));
  }

  // A card lying face down: no name of a card, only what it is.
  function backImage(view, extraClass, name) {
    return element("span", {
      class: "card back-card" + (extraClass ? " " + extraClass : ""), role: "img",
      "aria-label": name || view.t("webapp-face-down"),
    }, cardBack());
  }

  // -- the seats ------------------------------------------------------------------------------

  const RING = 2 * Math.PI * 21; // the turn clock's circle (radius 21 in a 48-unit box)

  function drawSeats(s, view) {
    const seats = $("seats");
    seats.replaceChildren();
    const players = s.players || [];
    const spectator = s.seat === null || s.seat === undefined;
    const others = spectator ? players.map((_, i) => i) : players.map((_, i) => (s.seat + 1 + i) % players.length).slice(0, -1);
    const spots = seatSpots(others, spectator, window.innerWidth > window.innerHeight);
    seats.classList.toggle("with-rows", players.some((player, index) => player.row && index !== s.seat));
    others.forEach((index, place) => {
      const node = seat(s, view, index);
      node.style.left = spots[place].x + "%";
      node.style.top = spots[place].y + "%";
      seats.append(node);
    });
    if (!spectator && players[s.seat]) seats.append(seat(s, view, s.seat));
  }

  function seat(s, view, index) {
    const player = s.players[index];
    const you = index === s.seat;
    const name = player.name + (you ? " (" + view.t("webapp-you") + ")" : "");
    const role = player.durak ? view.t("webapp-durak") : player.role;
    const team = player.team ?? null; // R-TEAM-1: the team's number, null without teams
    const acting = player.acting ? player.acting_text || view.t("webapp-acting") : null;
    const lit = view.seatTargets.has(index);
    const node = element("div", {
      class: "seat" + (player.acting ? " acting" : "") + (you ? " you" : " other") + (player.durak ? " durak" : "")
        + (player.row && !you ? " with-row" : "")
        + (player.place ? " out" : "") + (team === null ? "" : " team team-" + team) + (lit ? " lit" : ""),
      "aria-label": [name, player.rating_text, player.team_text, player.place || player.cards_text, role, acting].filter(Boolean).join(", "),
      "data-seat": index,
      "data-team": team,
      "data-drop": lit ? "seat" : null,
    },
    avatar(s, player),
    element("span", { class: "name", text: name }),
    you ? null : backs(player),
    role ? element("span", { class: "role", text: role }) : null,
    player.rating_text ? element("span", { class: "rating", text: player.rating_text }) : null,
    player.team_text ? element("span", { class: "team-name", text: player.team_text }) : null,
    player.row ? seatRow(view, player.row) : null);
    return node;
  }

  // The player's initial in a circle; round it, whoever must act, the ring of their clock.
  function avatar(s, player) {
    const node = element("span", { class: "avatar", "aria-hidden": "true" },
      element("span", { class: "initial", text: Array.from(player.name || "?")[0] }));
    if (player.acting && s.deadline && s.turn_seconds) {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", "0 0 48 48");
      svg.setAttribute("class", "ring");
      const circle = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      for (const [key, value] of Object.entries({ cx: 24, cy: 24, r: 21, "stroke-dasharray": RING })) {
        circle.setAttribute(key, value);
      }
      circle.dataset.deadline = s.deadline;
      circle.dataset.seconds = s.turn_seconds;
      svg.append(circle);
      node.append(svg, element("span", { class: "clock", "data-deadline": s.deadline }));
    }
    return node;
  }

  // A player's cards as backs fanned in their seat (at most eight drawn), and their count.
  function backs(player) {
    if (player.cards === undefined) return null; // before the deal
    if (player.place || player.row) return element("span", { class: "count", text: player.place || String(player.cards) });
    const shown = Math.min(player.cards || 0, 8);
    const fanOf = element("span", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < shown; i += 1) {
      const back = element("span", { class: "mini-back" });
      back.style.setProperty("--i", String(i - (shown - 1) / 2));
      fanOf.append(back);
    }
    return element("span", { class: "hand-size" }, fanOf, element("span", { class: "count", text: String(player.cards) }));
  }

  // R-REV-1: another player's hand, seen face up in slot order (R-BLIND-2): each card as
  // a chip with its name, which a seat's room still lets one read.
  function seatRow(view, row) {
    return element("div", { class: "row", role: "group", "aria-label": view.t("webapp-row") },
      ...row.map((card) => (card ? chip(view, card) : backImage(view, "chip back-chip"))));
  }

  function chip(view, card) {
    const suit = card.slice(-1);
    return element("span", {
      class: "card chip suit-" + suit + (suit === "H" || suit === "D" ? " red" : ""), role: "img",
      "aria-label": view.label(card), "data-card": card, text: view.label(card),
    });
  }

  // Every clock's ring and seconds, from its deadline.
  function tick() {
    const now = Date.now() / 1000;
    for (const circle of document.querySelectorAll(".ring circle")) {
      const left = Math.max(0, Number(circle.dataset.deadline) - now);
      const share = Math.min(1, left / Number(circle.dataset.seconds));
      circle.setAttribute("stroke-dashoffset", String(RING * (1 - share)));
      circle.classList.toggle("late", share < 0.25);
    }
    for (const node of document.querySelectorAll(".clock")) {
      node.textContent = String(Math.max(0, Math.round(Number(node.dataset.deadline) - now)));
    }
  }

  // -- the felt -------------------------------------------------------------------------------

  function drawPiles(s, view) {
    const trump = $("trump"), stock = $("stock"), discard = $("discard");
    trump.replaceChildren();
    stock.replaceChildren();
    discard.replaceChildren();
    if (!s.players || s.phase === "lobby") {
      for (const node of [trump, stock, discard]) node.removeAttribute("aria-label");
      return;
    }
    const suit = SUITS[s.trump];
    // The trump card lies face up across, under the stock; a trump named or turned from
    // the stock's end, or the stock gone, leaves its suit.
    trump.append(s.trump_card
      ? cardImage(view, s.trump_card, "across")
      : element("span", { class: "suit-mark", text: suit }));
    trump.setAttribute("aria-label", view.t("webapp-trump") + " " + suit);
    stock.setAttribute("aria-label", s.stock ? view.t("webapp-stock") + ": " + s.stock : view.t("webapp-stock-empty"));
    if (s.stock) stock.append(element("span", { class: "card back-card", "aria-hidden": "true", "data-pile": "stock" }, cardBack()));
    if (s.stock) stock.append(element("span", { class: "pile-count", text: String(s.stock) }));
    discard.setAttribute("aria-label", view.t("webapp-discard") + ": " + s.discard);
    if (s.discard) {
      for (let i = 0; i < Math.min(3, Math.ceil(s.discard / 6)); i += 1) {
        const back = element("span", { class: "card back-card", "aria-hidden": "true", "data-pile": "discard" }, cardBack());
        back.style.setProperty("--i", String(i));
        discard.append(back);
      }
    }
    if (s.discard) discard.append(element("span", { class: "pile-count", text: String(s.discard) }));
  }

  function drawPairs(s, view) {
    const table = $("table");
    table.replaceChildren();
    table.setAttribute("aria-label", view.t("webapp-table"));
    table.classList.toggle("lit", view.feltTarget);
    if (view.feltTarget) table.dataset.drop = "felt";
    else delete table.dataset.drop;
    const pairs = s.table || [];
    if (!pairs.length && !s.face_down_attack && s.phase === "playing" && !s.finished && !view.feltTarget) {
      table.append(element("p", { class: "hint", text: view.t("webapp-table-empty") }));
    }
    const down = s.face_down_covers || [];
    pairs.forEach(([attack, cover], index) => {
      const target = view.coverTargets.has(attack);
      table.append(element("div", { class: "pair" + (cover || down.includes(index) ? " covered" : "") },
        target ? cardButton(view, attack, true, "target") : cardImage(view, attack),
        coverImage(view, cover, down.includes(index))));
    });
    // "chinese": the opening lies face down until it is answered (R-CHI-2).
    if (s.face_down_attack) table.append(element("div", { class: "pair" }, backImage(view)));
  }

  // A cover, laid across its attack card: face up; lying face down ("doubt", R-DOUBT-2), a
  // back, or on the page of the defender who laid it its face, marked as lying face down.
  function coverImage(view, cover, faceDown) {
    if (!faceDown) return cover ? cardImage(view, cover, "cover") : null;
    if (!cover) return backImage(view, "cover");
    return cardImage(view, cover, "cover face-down", view.label(cover) + ", " + view.t("webapp-laid-face-down"));
  }

  // -- the hand -------------------------------------------------------------------------------

  function drawHand(s, view) {
    const hand = $("hand");
    hand.replaceChildren();
    hand.classList.toggle("watching", s.seat === null || s.seat === undefined);
    if (s.seat === null || s.seat === undefined) {
      hand.removeAttribute("aria-label");
      if (s.phase === "playing" && !s.finished) hand.append(element("p", { class: "hint", text: view.t("webapp-watching") }));
      return;
    }
    hand.setAttribute("aria-label", view.t("webapp-hand"));
    const cards = sortHand(s.hand || [], s.trump, view.order).map((card) => cardButton(
      view, card, view.playable(card), view.picked === card ? (view.dragging ? "lifted" : "picked") : ""));
    // A hand its player may not see ("reversed", "chinese"): a back for each slot.
    const backsOf = (s.hand_backs || []).map((name, index) => {
      const slot = index + 1;
      return element("button", {
        class: "card" + (view.pickedSlot === slot ? (view.dragging ? " lifted" : " picked") : ""), "aria-label": name, type: "button",
        "data-slot": slot, disabled: !view.slotPlayable(slot),
      }, cardBack());
    });
    const all = [...cards, ...backsOf];
    const room = view.handRoom;
    const width = view.handCard;
    fan(all.length, width, room).forEach((place, index) => {
      const node = all[index];
      node.style.left = place.left + "px";
      node.style.setProperty("--turn", place.turn + "deg");
      node.style.setProperty("--drop", place.drop + "px");
      node.style.zIndex = String(index + 1);
      hand.append(node);
    });
    const unseen = backsOf.some((node) => !node.disabled);
    hand.classList.toggle("with-hint", unseen);
    if (unseen) hand.append(element("p", { class: "hint", text: view.t("webapp-hand-unseen") }));
  }

  // The cards' and seats' sizes for this screen and the player's choice of large cards, in
  // the stylesheet's variables; the hand's card width.
  function sizes(s, large) {
    const wide = window.innerWidth, high = window.innerHeight;
    const landscape = wide > high;
    const scale = large ? 1.2 : 1;
    const clamp = (low, value, high) => Math.round(Math.max(low, Math.min(high, value)));
    const hand = landscape ? clamp(40, high * 0.15, 64) * scale : clamp(50, wide * 0.16, 76) * scale;
    const table = (landscape ? clamp(34, high * 0.13, 56) : clamp(40, wide * 0.135, 64)) * (large ? 1.15 : 1);
    const seats = (s.players || []).length;
    const seat = landscape ? 70 : seats > 5 ? clamp(60, wide * 0.18, 76) : clamp(66, wide * 0.21, 84);
    // Set only when they change: a new value restyles the whole page.
    const root = document.documentElement;
    const wanted = { "--hand-card": Math.round(hand) + "px", "--table-card": Math.round(table) + "px", "--seat-w": seat + "px" };
    for (const [name, value] of Object.entries(wanted)) {
      if (root.style.getPropertyValue(name) !== value) root.style.setProperty(name, value);
    }
    const screen = landscape ? "landscape" : "portrait";
    if (root.dataset.screen !== screen) root.dataset.screen = screen;
    return Math.round(hand);
  }

  // -- the end --------------------------------------------------------------------------------

  function drawResult(s, view) {
    const result = $("result");
    result.replaceChildren();
    const over = (s.finished || s.phase === "finished") && !s.stopped && s.players;
    result.hidden = !over;
    if (!over) return;
    // In the order they went out, the durak last.
    const places = s.players.map((player, index) => ({ player, index }))
      .filter(({ player }) => player.place || player.durak)
      .sort((a, b) => (a.player.finished_as || 99) - (b.player.finished_as || 99));
    add(result, element("h2", { text: view.t("webapp-result") }),
      element("ol", {}, ...places.map(({ player, index }) => element("li", {
        class: player.durak ? "durak" : null, "data-seat": index,
      }, element("span", { class: "name", text: player.name }),
      element("span", { class: "place", text: player.durak ? view.t("webapp-durak") : player.place })))),
      s.team_lost ? element("p", { class: "team-lost", text: s.team_lost }) : null);
  }

  function draw(s, view) {
    // Read before anything changes: a read after a change would lay the page out twice.
    view.handRoom = $("hand").clientWidth || document.documentElement.clientWidth;
    view.handCard = sizes(s, view.size === "large");
    $("app").dataset.version = String(s.version); // which position the page shows
    $("app").dataset.players = String((s.players || []).length);
    drawPiles(s, view);
    drawSeats(s, view);
    drawPairs(s, view);
    drawHand(s, view);
    drawResult(s, view);
    tick();
  }

  window.DurakTable = { draw, tick };
})();
