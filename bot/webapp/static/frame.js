// Telegram's frame round the page: full screen on phones, the safe areas, vertical swipes
// (off while a card is dragged), the back button, the bottom buttons, haptics, the theme and
// the viewport. Every call is made only where the client has it (``isVersionAtLeast``), so
// an older Telegram, or a browser without Telegram, gets the page without it.
"use strict";

(function () {
  function create(tg, onResize) {
    const has = (version) => Boolean(tg && tg.isVersionAtLeast && tg.isVersionAtLeast(version));
    const root = document.documentElement;

    function start() {
      window.DurakPage.applyTheme(tg);
      if (tg) {
        tg.ready();
        if (tg.expand) tg.expand();
        // Full screen on phones only: on a desktop it would cover the chat for nothing.
        if (has("8.0") && tg.requestFullscreen && ["android", "ios"].includes(tg.platform)) tg.requestFullscreen();
        if (tg.onEvent) {
          tg.onEvent("themeChanged", () => window.DurakPage.applyTheme(tg));
          for (const name of ["viewportChanged", "safeAreaChanged", "contentSafeAreaChanged", "fullscreenChanged"]) {
            tg.onEvent(name, () => { insets(); onResize(); });
          }
        }
      }
      insets();
      window.addEventListener("resize", onResize);
    }

    // Telegram's safe areas (the phone's notch, and in full screen its own header) as the
    // stylesheet's --safe-top/right/bottom/left; the browser's own where Telegram says none.
    function insets() {
      const device = (tg && tg.safeAreaInset) || {};
      const content = (tg && tg.contentSafeAreaInset) || {};
      for (const side of ["top", "right", "bottom", "left"]) {
        const pixels = (device[side] || 0) + (content[side] || 0);
        if (pixels) root.style.setProperty("--safe-" + side, pixels + "px");
        else root.style.removeProperty("--safe-" + side);
      }
    }

    function swipes(allowed) {
      if (!has("7.7")) return;
      if (allowed) tg.enableVerticalSwipes();
      else tg.disableVerticalSwipes();
    }

    // The back button, shown while ``onBack`` may close something (a dialog, a raised card).
    let back = null;
    function backButton(onBack) {
      if (!tg || !tg.BackButton || !has("6.1")) return;
      if (back) tg.BackButton.offClick(back);
      back = onBack;
      if (onBack) {
        tg.BackButton.onClick(onBack);
        tg.BackButton.show();
      } else {
        tg.BackButton.hide();
      }
    }

    // Telegram's own bottom buttons for up to two actions ({text, run}); false where the
    // client has none (or one, and two are wanted): the page draws its own.
    const handlers = { main: null, secondary: null };
    function bottomButtons(wanted) {
      const buttons = {
        main: has("6.1") ? tg.MainButton : null,
        secondary: has("7.10") ? tg.SecondaryButton : null,
      };
      const usable = buttons.main && (wanted.length < 2 || buttons.secondary);
      ["main", "secondary"].forEach((which, index) => {
        const button = buttons[which];
        if (!button) return;
        if (handlers[which]) button.offClick(handlers[which]);
        handlers[which] = null;
        const action = usable ? wanted[index] : null;
        if (!action) {
          button.hide();
          return;
        }
        handlers[which] = action.run;
        button.onClick(action.run);
        button.setParams({ text: action.text, is_visible: true, is_active: true });
      });
      return Boolean(usable);
    }

    // A move is felt lightly, a raised card as a selection, a refusal as an error.
    function buzz(kind) {
      const haptic = tg && tg.HapticFeedback;
      if (!haptic) return;
      if (kind === "refused") haptic.notificationOccurred("error");
      else if (kind === "pick" && haptic.selectionChanged) haptic.selectionChanged();
      else haptic.impactOccurred(kind === "pick" ? "soft" : "light");
    }

    return { start, swipes, backButton, bottomButtons, buzz };
  }

  window.DurakFrame = { create };
})();
