// Playing by hand: a card of the hand is tapped (raised, its legal places lit, then the
// place tapped) or dragged where it goes: onto an attack card to cover it, onto the felt to
// attack, throw in or transfer, onto the seat a transfer passes the attack to. A card with
// one legal move only is played by its tap alone. What is legal is the state's "actions"
// (the chat keyboard's own buttons); the page never decides it.
"use strict";

(function () {
  const DRAG_FROM = 8; // pixels a finger moves before a press becomes a drag

  // ``hooks``: actions() (the state's legal actions), send(action), redraw(), buzz(kind),
  // swipes(allowed) (Telegram's vertical swipes, off while dragging).
  function create(hooks) {
    let picked = null; // a card of the hand, raised, its places lit
    let pickedSlot = null; // the same for a slot of a hand its player may not see (from 1)
    let drag = null; // the card (or slot) pressed, where, its copy following the finger
    let justDragged = false;

    const actions = () => hooks.actions();

    // Where a card (or a slot) may go now: the felt, attack cards (by their card), seats.
    function offers(card, slot) {
      const felt = [], covers = new Map(), seats = new Map();
      for (const a of actions()) {
        if (card !== null) {
          if ((a.kind === "attack" || a.kind === "throw") && a.cards.length === 1 && a.cards[0] === card) felt.push(a);
          else if (a.kind === "defend" && a.cards[0] === card) covers.set(a.cards[1], a);
          else if (a.kind === "transfer" && a.cards.length === 1 && a.cards[0] === card) {
            felt.push(a);
            if (a.to !== undefined && a.to !== null) seats.set(a.to, a);
          }
        } else if (a.slot === slot) {
          if (a.kind === "attack_slot" || a.kind === "throw_slot") felt.push(a);
          // "chinese": a cover laid on the opening lying face down names no attack card.
          else if (a.kind === "defend_slot" && a.cards.length) covers.set(a.cards[0], a);
          else if (a.kind === "defend_slot") felt.push(a);
        }
      }
      const moves = new Set([...felt, ...covers.values(), ...seats.values()].map((a) => a.act));
      // ``first``: the move of a card that has one only (a transfer onto a seat is also
      // one onto the felt).
      return { felt: felt[0] || null, covers, seats, moves: moves.size, first: felt[0] || covers.values().next().value };
    }

    const current = () => (picked !== null ? offers(picked, null) : pickedSlot !== null ? offers(null, pickedSlot) : null);

    // What the drawing needs: what is raised, and where it may go.
    function view() {
      const now = current();
      return {
        picked, pickedSlot,
        dragging: drag && drag.moved ? drag : null,
        feltTarget: Boolean(now && now.felt),
        coverTargets: now ? now.covers : new Map(),
        seatTargets: now ? now.seats : new Map(),
        playable: (card) => offers(card, null).moves > 0,
        slotPlayable: (slot) => offers(null, slot).moves > 0,
      };
    }

    function pick(card, slot) {
      picked = card;
      pickedSlot = slot;
      hooks.buzz("pick");
      hooks.redraw();
    }

    function cancel() {
      if (picked === null && pickedSlot === null) return false;
      picked = null;
      pickedSlot = null;
      hooks.redraw();
      return true;
    }

    // The state changed: a pick that can no longer go anywhere is dropped.
    function refresh() {
      const now = current();
      if (now && !now.moves) { picked = null; pickedSlot = null; }
    }

    function play(action) {
      picked = null;
      pickedSlot = null;
      hooks.send(action);
    }

    function tapCard(card, slot) {
      if (picked === card && pickedSlot === slot) { cancel(); return; }
      const now = offers(card, slot);
      if (now.moves === 0) { hooks.buzz("refused"); return; }
      if (now.moves === 1) play(now.first);
      else pick(card, slot);
    }

    // A tap (or a drop) on a place: the raised card's move there, if it has one. A card on
    // the table it cannot cover is part of the felt.
    function placeAction(place, now) {
      if (!now || !place) return null;
      if (place.cover !== undefined && now.covers.has(place.cover)) return now.covers.get(place.cover);
      if (place.seat !== undefined) return now.seats.get(place.seat) || null;
      return place.felt ? now.felt : null;
    }

    // What lies at an element of the page, as a place a card may go.
    function placeOf(node) {
      if (!node || !node.closest) return null;
      const seat = node.closest("#seats .seat");
      if (seat) return { seat: Number(seat.dataset.seat) };
      if (!node.closest("#felt")) return null;
      const card = node.closest("#table [data-card]");
      return card ? { cover: card.dataset.card, felt: true } : { felt: true };
    }

    function onClick(event) {
      if (justDragged) { justDragged = false; return; }
      const node = event.target;
      const inHand = node.closest && node.closest("#hand button");
      if (inHand) {
        if (inHand.dataset.card) tapCard(inHand.dataset.card, null);
        else tapCard(null, Number(inHand.dataset.slot));
        return;
      }
      const now = current();
      const action = placeAction(placeOf(node), now);
      if (action) play(action);
    }

    // -- dragging -------------------------------------------------------------------------------

    function onPointerDown(event) {
      const node = event.target.closest && event.target.closest("#hand button:not(:disabled)");
      if (!node || event.button > 0) return;
      const rect = node.getBoundingClientRect();
      drag = {
        card: node.dataset.card || null, slot: node.dataset.slot ? Number(node.dataset.slot) : null,
        x: event.clientX, y: event.clientY, dx: event.clientX - rect.left, dy: event.clientY - rect.top,
        source: node, ghost: null, moved: false, pointer: event.pointerId,
      };
      window.addEventListener("pointermove", onPointerMove);
      window.addEventListener("pointerup", onPointerUp);
      window.addEventListener("pointercancel", onPointerCancel);
    }

    function onPointerMove(event) {
      if (!drag || event.pointerId !== drag.pointer) return;
      if (!drag.moved) {
        if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_FROM) return;
        drag.moved = true;
        hooks.swipes(false);
        drag.ghost = drag.source.cloneNode(true);
        drag.ghost.removeAttribute("data-card");
        drag.ghost.removeAttribute("data-slot");
        drag.ghost.setAttribute("aria-hidden", "true");
        drag.ghost.classList.add("dragged");
        drag.ghost.style.removeProperty("left");
        document.body.append(drag.ghost);
        picked = drag.card;
        pickedSlot = drag.slot;
        hooks.redraw();
      }
      event.preventDefault();
      drag.ghost.style.transform = `translate(${event.clientX - drag.dx}px, ${event.clientY - drag.dy}px)`;
      const over = placeOf(document.elementFromPoint(event.clientX, event.clientY));
      for (const node of document.querySelectorAll(".over")) node.classList.remove("over");
      const action = placeAction(over, current());
      if (action) overNode(over).classList.add("over");
    }

    function overNode(place) {
      const now = current();
      if (place.cover !== undefined && now.covers.has(place.cover)) return document.querySelector(`#table [data-card="${place.cover}"]`);
      if (place.seat !== undefined) return document.querySelector(`#seats [data-seat="${place.seat}"]`);
      return document.getElementById("table");
    }

    function onPointerUp(event) {
      if (!drag || event.pointerId !== drag.pointer) return;
      const moved = drag.moved;
      const place = moved ? placeOf(elementUnder(event)) : null;
      const now = current();
      endDrag();
      if (!moved) return; // a tap: the click that follows plays it
      justDragged = true;
      setTimeout(() => { justDragged = false; }, 0);
      const action = placeAction(place, now);
      if (action) { play(action); return; }
      // Dropped somewhere it may not go: a refusal felt; on the hand itself, nothing.
      if (place) hooks.buzz("refused");
      picked = null;
      pickedSlot = null;
      hooks.redraw();
    }

    function elementUnder(event) {
      return document.elementFromPoint(event.clientX, event.clientY);
    }

    function onPointerCancel() {
      endDrag();
      cancel();
    }

    function endDrag() {
      window.removeEventListener("pointermove", onPointerMove);
      window.removeEventListener("pointerup", onPointerUp);
      window.removeEventListener("pointercancel", onPointerCancel);
      for (const node of document.querySelectorAll(".over")) node.classList.remove("over");
      if (drag && drag.ghost) drag.ghost.remove();
      if (drag && drag.moved) hooks.swipes(true);
      drag = null;
    }

    function attach(root) {
      root.addEventListener("click", onClick);
      root.addEventListener("pointerdown", onPointerDown);
    }

    return { view, cancel, refresh, attach, picking: () => picked !== null || pickedSlot !== null };
  }

  window.DurakPlay = { create };
})();
