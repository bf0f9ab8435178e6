# The Mini App's page (bot/webapp): its own words; card counts, roles, places and the take
# and pass buttons are the chat's (table.ftl). Ids: webapp-*. Plain text, not HTML.

webapp-title = Дурень — стіл
webapp-your-turn = Твій хід
webapp-waiting = Чекаємо: { $names }
webapp-trump = Козир
webapp-stock = Колода
webapp-stock-empty = Колода порожня
webapp-discard = Бито
webapp-table = Стіл
webapp-table-empty = На столі порожньо
webapp-hand = Твої карти
webapp-watching = Ти дивишся гру: карти гравців приховані.
webapp-pick-target = Обери карту, яку б'єш
webapp-cancel = Скасувати
webapp-transfer = Перевести
webapp-connecting = З'єднуємося…
webapp-lobby = Гра ще не почалася.
webapp-finished = Гру закінчено.
webapp-stopped = Гру зупинили.
webapp-durak = дурень
webapp-you = ти
webapp-acting = ходить зараз
webapp-no-access = Цей стіл тобі не видно. Відкрий його кнопкою з чату з ботом.
webapp-no-game = Тут зараз немає гри.
# The page's socket closed by the server: the same person opened the table once more
# elsewhere; too many people watch this table on one worker.
webapp-replaced = Стіл відкрито в іншому вікні. Згорни це вікно й відкрий знову, щоб грати тут.
webapp-full = За цим столом зараз забагато глядачів. Спробуємо ще раз за хвилину.
# A seat's team (R-TEAM-1): the chat's mark (🔴 🔵 🟢), and who it is to the viewer.
webapp-team = { $mark } команда
webapp-team-yours = { $mark } твоя команда
webapp-team-partner = { $mark } партнер
# A seat's rating, as of the deal (a person's once they have a rated game; a computer's level's).
webapp-rating = рейтинг { $rating }
# Before the deal under «козир називає той, хто роздає» (R-TRUMP-1).
webapp-naming = { $name } роздає й називає козир.
webapp-naming-yours = Ти роздаєш: назви козир.
webapp-naming-now = називає козир
webapp-suits = Масть козиря
# The blind family (RULES.md section 14): a card lying face down, or one of the player's own
# cards they may not see (its slot, from 1: R-BLIND-2); a cover the defender laid face down,
# shown face up on his own page only.
webapp-slot-back = карта { $slot }, сорочкою догори
webapp-face-down = карта сорочкою догори
webapp-laid-face-down = лежить сорочкою догори
webapp-hand-unseen = Своїх карт ти не бачиш: натисни на сорочку, щоб зіграти карту з цієї комірки.
webapp-row = Карти гравця

# The player's own options (⚙), kept in Telegram for every device of theirs.
webapp-options = Налаштування столу
webapp-sort = Порядок карт у руці
webapp-sort-suit = за мастями
webapp-sort-rank = за старшинством
webapp-deck = Колода
webapp-deck-two = дві барви
webapp-deck-four = чотири кольори (♦ сині, ♣ зелені)
webapp-size = Розмір карт
webapp-size-normal = звичайні
webapp-size-large = великі
webapp-close = Готово
# A finished game's result on the felt: who went out in which order, and the durak.
webapp-result = Підсумок гри

## The replay page (/replay): a finished game step by step, for those who played it. Ids:
## replay-page-*; what happened at each step is the chat's own narration (table.ftl), a
## review's moment the chat's review-moment (after.ftl).

# The button that opens a finished game's replay (bot.ui.webapp.replay_button).
button-replay = ▶️ Повтор
replay-page-title = Дурень — повтор
replay-page-first = ⏮ На початок
replay-page-back = ◀ Назад
replay-page-forward = Вперед ▶
replay-page-last = У кінець ⏭
replay-page-timeline = Ходи гри
replay-page-moments = Де хід коштував тобі найбільше
replay-page-dealt-title = Роздача
replay-page-step = Хід { $move } з { $moves }
replay-page-dealt = { $dealer } роздає, козир — { $symbol } { $suit }.
# The same for a stranger and for a game no longer kept: either way nothing is told.
replay-page-not-found = Цей повтор не відкрити: його бачать лише ті, хто грав, поки запис гри зберігається.
# The page's own check of the deck (docs/FAIR-DEAL.md), with the browser's SHA-256.
replay-page-deck-checking = Перевіряємо колоду…
replay-page-deck-ok = Колоду перевірено: #{ $commitment } ✓
replay-page-deck-commitment = ✗ Колода не сходиться: сід і гра дають мітку #{ $expected }, а на столі була #{ $recorded }
replay-page-deck-hand = ✗ Колода не сходиться: у { $name } були б { $cards }, а в записі { $recorded }
replay-page-deck-stock = ✗ Колода не сходиться: у колоді було б { $cards }, а в записі { $recorded }
replay-page-deck-trump = ✗ Колода не сходиться: козир був би { $expected }, а в записі { $recorded }
replay-page-deck-variant = Роздачу з таким вибором козиря тут не перевірити: перевір запис командою python -m engine.verify.
replay-page-deck-unavailable = Цей браузер не рахує SHA-256: перевір запис командою python -m engine.verify.
replay-page-deck-malformed = ✗ Запис роздачі не читається: перевір його командою python -m engine.verify.
