// Cards drawn as SVG by the page itself: no image from anywhere. A card is its engine name
// ("7H", "10S", "AD"): the rank, then the suit letter (S H D C).
"use strict";

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SVG_NS = "http://www.w3.org/2000/svg";

function svgElement(name, attributes) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  return element;
}

function svgText(x, y, size, text, extra) {
  const element = svgElement("text", { x, y, "font-size": size, ...extra });
  element.textContent = text;
  return element;
}

// The face of a card: its localized rank ("Т" for a Russian ace) in the corners, its suit.
// Each face is built once and copied after: a table of six redraws some forty cards a move.
const faces = new Map();

function cardFace(code, label) {
  const key = code + " " + label;
  if (!faces.has(key)) faces.set(key, drawFace(code, label));
  return faces.get(key).cloneNode(true);
}

function drawFace(code, label) {
  const suit = code.slice(-1);
  const rank = label.slice(0, -1);
  const red = suit === "H" || suit === "D";
  const svg = svgElement("svg", {
    viewBox: "0 0 60 84", class: "face " + (red ? "red" : "black") + " suit-" + suit, "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(
    svgElement("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "paper" }),
    svgText(5, 17, 15, rank, { "font-weight": "700" }),
    svgText(5, 31, 13, SUITS[suit], {}),
    svgText(30, 56, 30, SUITS[suit], { "text-anchor": "middle" }),
    svgText(55, 79, 13, rank, { "text-anchor": "end", "font-weight": "700" }),
  );
  return svg;
}

// The back of a card: the stock, a card lying face down, a hand its player may not see.
let back = null;

function cardBack() {
  if (!back) back = drawBack();
  return back.cloneNode(true);
}

function drawBack() {
  const svg = svgElement("svg", { viewBox: "0 0 60 84", class: "back", "aria-hidden": "true" });
  svg.append(
    svgElement("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "back-paper" }),
    svgElement("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, class: "back-pattern" }),
  );
  return svg;
}

window.DurakCards = { cardFace, cardBack, SUITS };
