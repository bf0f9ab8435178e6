// Cards that move: after each new position every card is drawn where it now lies, then slid
// there from where it lay before (the "first, last, invert, play" way: one Web Animation a
// card, nothing kept between positions). A card new to the page comes from where it must
// have come from (the stock, the seat that played it); one that left the page flies to
// where it went (the discard, the seat that took it). A page that falls behind, or is
// hidden, or whose reader asks for less motion, shows the newest position at once.
"use strict";

(function () {
  const SLIDE_MS = 220; // a card moving within the page (the hand closing up, a cover)
  const FLY_MS = 300; // a card played, taken, beaten off, drawn
  const EASING = "cubic-bezier(0.2, 0.7, 0.3, 1)";
  const lessMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

  const rectOf = (node) => (node ? node.getBoundingClientRect() : null);
  const centre = (rect) => ({ x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 });

  // Where everything is before a new position is drawn.
  function snapshot() {
    const cards = new Map();
    for (const node of document.querySelectorAll("#app [data-card]")) {
      cards.set(node.dataset.card, { node, rect: rectOf(node), where: node.closest("#hand") ? "hand" : "table" });
    }
    const seats = new Map();
    for (const node of document.querySelectorAll("#seats .seat")) seats.set(Number(node.dataset.seat), rectOf(node));
    return { cards, seats, stock: rectOf(document.getElementById("stock")) };
  }

  // Every animation ends now, every flying card is gone: the page shows the newest position.
  function settle() {
    for (const animation of document.getAnimations()) animation.finish();
    document.getElementById("flying").replaceChildren();
  }

  const wanted = () => !lessMotion.matches && !document.hidden;

  // Slide every card from where it was (``before``) to where ``next`` drew it.
  function play(before, previous, next) {
    if (!before || !previous || !wanted() || previous.game !== next.game || !next.players || !previous.players) return;
    const changes = countChanges(previous, next);
    const seen = new Set();
    for (const node of document.querySelectorAll("#app [data-card]")) {
      const card = node.dataset.card;
      seen.add(card);
      const old = before.cards.get(card);
      const to = rectOf(node);
      const from = old ? old.rect : arrivesFrom(node, before, changes);
      if (!from || !to.width) continue;
      const a = centre(from), b = centre(to);
      if (Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1) continue;
      node.animate([{ translate: `${a.x - b.x}px ${a.y - b.y}px` }, { translate: "0 0" }],
        { duration: old ? SLIDE_MS : FLY_MS, easing: EASING });
    }
    for (const [card, old] of before.cards) {
      if (seen.has(card) || old.where !== "table") continue;
      const to = changes.discarded ? rectOf(document.getElementById("discard")) : rectOf(seatNode(changes.took));
      if (to) fly(old.node, old.rect, to);
    }
    // Backs drawn from the stock by the other players.
    if (changes.drew.length) {
      const stock = before.stock;
      changes.drew.forEach((seat, index) => {
        const to = rectOf(seatNode(seat));
        if (stock && to) fly(backTemplate(), stock, to, index * 40);
      });
    }
  }

  // What happened between two positions, as far as the cards' ways go.
  function countChanges(previous, next) {
    const drew = [], fell = [];
    let took = null, most = 0;
    next.players.forEach((player, seat) => {
      const was = (previous.players[seat] || {}).cards || 0, now = player.cards || 0;
      if (now < was) fell.push(seat);
      if (now > was && seat !== next.seat) {
        if (next.stock < previous.stock) drew.push(seat);
        if (now - was > most) { most = now - was; took = seat; }
      }
    });
    return { drew, fell, took, discarded: next.discard > previous.discard };
  }

  // Where a card the page did not show before comes from: into the hand, the stock; onto
  // the table, the seat whose hand it left.
  function arrivesFrom(node, before, changes) {
    if (node.closest("#hand")) return before.stock;
    if (!node.closest("#table")) return null;
    const seat = changes.fell.find((s) => before.seats.has(s));
    return seat === undefined ? null : before.seats.get(seat);
  }

  function seatNode(seat) {
    return seat === null ? null : document.querySelector(`#seats .seat[data-seat="${seat}"]`);
  }

  function backTemplate() {
    const node = document.createElement("span");
    node.className = "card back-card";
    node.append(window.DurakCards.cardBack());
    return node;
  }

  // A copy of ``template`` flies from ``from`` to ``to`` and is gone: the card itself is
  // no longer on the page (discarded, taken into another hand) or is a back being drawn.
  function fly(template, from, to, delay) {
    const ghost = template.cloneNode(true);
    ghost.removeAttribute("data-card");
    ghost.removeAttribute("aria-label");
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("ghost");
    Object.assign(ghost.style, {
      left: from.left + "px", top: from.top + "px", width: from.width + "px", height: from.height + "px",
    });
    document.getElementById("flying").append(ghost);
    const a = centre(from), b = centre(to);
    const animation = ghost.animate([
      { translate: "0 0", scale: "1", opacity: 1 },
      { translate: `${b.x - a.x}px ${b.y - a.y}px`, scale: "0.5", opacity: 0.2 },
    ], { duration: FLY_MS, delay: delay || 0, easing: EASING, fill: "forwards" });
    animation.finished.then(() => ghost.remove(), () => ghost.remove());
  }

  window.DurakMotion = { snapshot, settle, play };
})();
