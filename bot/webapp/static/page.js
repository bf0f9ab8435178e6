// What the table's page (app.js) and the replay's (replay.js) both need: building elements,
// and Telegram's theme in the stylesheet's variables.
"use strict";

// Append the children that exist (DOM's own append would write "null" for a missing one).
function add(node, ...children) {
  node.append(...children.filter(Boolean));
  return node;
}

function element(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "onclick") node.addEventListener("click", value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  return add(node, ...children);
}

// Telegram's colour scheme and theme colours (``tg``: Telegram.WebApp, if any).
function applyTheme(tg) {
  const root = document.documentElement;
  root.dataset.theme = tg && tg.colorScheme === "dark" ? "dark" : "light";
  const params = (tg && tg.themeParams) || {};
  const names = {
    bg_color: "--bg", text_color: "--text", hint_color: "--hint", button_color: "--button",
    button_text_color: "--button-text", secondary_bg_color: "--panel",
  };
  for (const [key, variable] of Object.entries(names)) {
    if (params[key]) root.style.setProperty(variable, params[key]);
    else root.style.removeProperty(variable);
  }
}

window.DurakPage = { add, element, applyTheme };
