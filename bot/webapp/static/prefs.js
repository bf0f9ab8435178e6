// The player's own options: the hand's order (by suit or by rank), a four-colour deck, large
// cards. Kept in Telegram's CloudStorage (the same on every device of the person); where the
// client has none, in the browser's own storage.
"use strict";

(function () {
  const DEFAULTS = { order: "suit", deck: "two", size: "normal" };
  const CHOICES = { order: ["suit", "rank"], deck: ["two", "four"], size: ["normal", "large"] };
  const PREFIX = "table_";

  function create(tg) {
    const cloud = tg && tg.CloudStorage && tg.isVersionAtLeast && tg.isVersionAtLeast("6.9") ? tg.CloudStorage : null;
    const options = { ...DEFAULTS };

    function valid(name, value) {
      return CHOICES[name].includes(value) ? value : DEFAULTS[name];
    }

    // The kept options, then ``done()``; whatever cannot be read stays as it was.
    function load(done) {
      const names = Object.keys(DEFAULTS);
      if (cloud) {
        cloud.getItems(names.map((name) => PREFIX + name), (error, values) => {
          if (!error && values) for (const name of names) options[name] = valid(name, values[PREFIX + name]);
          apply();
          done();
        });
        return;
      }
      try {
        for (const name of names) options[name] = valid(name, window.localStorage.getItem(PREFIX + name));
      } catch (error) { /* storage switched off: the defaults */ }
      apply();
      done();
    }

    function set(name, value) {
      options[name] = valid(name, value);
      apply();
      if (cloud) cloud.setItem(PREFIX + name, options[name]);
      else {
        try { window.localStorage.setItem(PREFIX + name, options[name]); } catch (error) { /* not kept */ }
      }
    }

    // The stylesheet draws the deck and the card size from the root's data attributes.
    function apply() {
      document.documentElement.dataset.deck = options.deck;
      document.documentElement.dataset.size = options.size;
    }

    return { load, set, get: (name) => options[name], choices: (name) => CHOICES[name] };
  }

  window.DurakPrefs = { create };
})();
