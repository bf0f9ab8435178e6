# The Mini App's page (bot/webapp): its own words; card counts, roles, places and the take
# and pass buttons are the chat's (table.ftl). Ids: webapp-*. Plain text, not HTML.

webapp-title = Дурак — стол
webapp-your-turn = Твой ход
webapp-waiting = Ждём: { $names }
webapp-trump = Козырь
webapp-stock = Колода
webapp-stock-empty = Колода пуста
webapp-discard = Бито
webapp-table = Стол
webapp-table-empty = На столе пусто
webapp-hand = Твои карты
webapp-watching = Ты смотришь игру: карты игроков скрыты.
webapp-pick-target = Выбери карту, которую бьёшь
webapp-cancel = Отмена
webapp-transfer = Перевести
webapp-connecting = Соединяемся…
webapp-lobby = Игра ещё не началась.
webapp-finished = Игра окончена.
webapp-stopped = Игру остановили.
webapp-durak = дурак
webapp-you = ты
webapp-acting = ходит сейчас
webapp-no-access = Этот стол тебе не виден. Открой его кнопкой из чата с ботом.
webapp-no-game = Здесь сейчас нет игры.
# The page's socket closed by the server: the same person opened the table once more
# elsewhere; too many people watch this table on one worker.
webapp-replaced = Стол открыт в другом окне. Сверни это окно и открой снова, чтобы играть здесь.
webapp-full = За этим столом сейчас слишком много зрителей. Попробуем ещё раз через минуту.
# A seat's team (R-TEAM-1): the chat's mark (🔴 🔵 🟢), and who it is to the viewer.
webapp-team = { $mark } команда
webapp-team-yours = { $mark } твоя команда
webapp-team-partner = { $mark } партнёр
# A seat's rating, as of the deal (a person's once they have a rated game; a computer's level's).
webapp-rating = рейтинг { $rating }
# Before the deal under «козырь называет сдающий» (R-TRUMP-1).
webapp-naming = { $name } сдаёт и называет козырь.
webapp-naming-yours = Ты сдаёшь: назови козырь.
webapp-naming-now = называет козырь
webapp-suits = Масть козыря
# The blind family (RULES.md section 14): a card lying face down, or one of the player's own
# cards they may not see (its slot, from 1: R-BLIND-2); a cover the defender laid face down,
# shown face up on his own page only.
webapp-slot-back = карта { $slot }, рубашкой вверх
webapp-face-down = карта рубашкой вверх
webapp-laid-face-down = лежит рубашкой вверх
webapp-hand-unseen = Своих карт ты не видишь: нажми на рубашку, чтобы сыграть карту из этой ячейки.
webapp-row = Карты игрока

# The player's own options (⚙), kept in Telegram for every device of theirs.
webapp-options = Настройки стола
webapp-sort = Порядок карт в руке
webapp-sort-suit = по мастям
webapp-sort-rank = по старшинству
webapp-deck = Колода
webapp-deck-two = две краски
webapp-deck-four = четыре цвета (♦ синие, ♣ зелёные)
webapp-size = Размер карт
webapp-size-normal = обычные
webapp-size-large = крупные
webapp-close = Готово
# A finished game's result on the felt: who went out in which order, and the durak.
webapp-result = Итог игры

## The replay page (/replay): a finished game step by step, for those who played it. Ids:
## replay-page-*; what happened at each step is the chat's own narration (table.ftl), a
## review's moment the chat's review-moment (after.ftl).

# The button that opens a finished game's replay (bot.ui.webapp.replay_button).
button-replay = ▶️ Повтор
replay-page-title = Дурак — повтор
replay-page-first = ⏮ В начало
replay-page-back = ◀ Назад
replay-page-forward = Вперёд ▶
replay-page-last = В конец ⏭
replay-page-timeline = Ходы игры
replay-page-moments = Где ход стоил тебе больше всего
replay-page-dealt-title = Сдача
replay-page-step = Ход { $move } из { $moves }
replay-page-dealt = { $dealer } сдаёт, козырь — { $symbol } { $suit }.
# The same for a stranger and for a game no longer kept: either way nothing is told.
replay-page-not-found = Этот повтор не открыть: его видят только игравшие, пока запись игры хранится.
# The page's own check of the deck (docs/FAIR-DEAL.md), with the browser's SHA-256.
replay-page-deck-checking = Проверяем колоду…
replay-page-deck-ok = Колода проверена: #{ $commitment } ✓
replay-page-deck-commitment = ✗ Колода не сходится: сид и игра дают метку #{ $expected }, а на столе была #{ $recorded }
replay-page-deck-hand = ✗ Колода не сходится: у { $name } были бы { $cards }, а в записи { $recorded }
replay-page-deck-stock = ✗ Колода не сходится: в колоде было бы { $cards }, а в записи { $recorded }
replay-page-deck-trump = ✗ Колода не сходится: козырь был бы { $expected }, а в записи { $recorded }
replay-page-deck-variant = Раздачу с таким выбором козыря здесь не проверить: проверь запись командой python -m engine.verify.
replay-page-deck-unavailable = Этот браузер не считает SHA-256: проверь запись командой python -m engine.verify.
replay-page-deck-malformed = ✗ Запись раздачи не читается: проверь её командой python -m engine.verify.
