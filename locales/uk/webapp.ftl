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
