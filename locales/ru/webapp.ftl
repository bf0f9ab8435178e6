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
