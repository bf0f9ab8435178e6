# The terminal game (durak-play): plain text, no HTML. Ids: term-*.
# Cards, the table, events and counts come from table.ftl, the same words as in the bot.

term-title = Игроков за столом: { $players }. Компьютер играет на уровне «{ $level }».
term-level-easy = лёгкий
term-level-normal = средний
term-level-hard = сильный
term-hint = Введи номер хода и нажми Enter; q — выйти.
term-you = Ты
term-your-turn = Твой ход:
term-prompt = Номер хода:
term-action-attack = ходить: { $cards }
term-action-throw = подкинуть: { $cards }
term-action-cover = покрыть { $on } картой { $card }
term-action-take = взять карты
term-action-pass = пас, больше не подкидывать
term-action-transfer = перевести картой { $card }
term-action-exchange = обменять { $card } на открытый козырь { $took }
term-action-attack-slot = ходить картой из ячейки { $slot } (не глядя)
term-action-throw-slot = подкинуть карту из ячейки { $slot } (не глядя)
term-action-cover-slot = покрыть { $on } картой из ячейки { $slot } (не глядя)
term-action-answer-slot = отбиваться картой из ячейки { $slot } (не глядя)
term-action-believe = «верю»: карты в отбой, не открывая
term-action-doubt = «не верю»: открыть покрытия
term-event-exchanged = { $name } меняет { $card } на открытый козырь { $took }
term-event-trump-changed = { $name } берёт нижнюю карту { $card }: теперь козырь — её масть
term-event-epaulettes = 🎖 { $name } — дурак с погонами!
term-error-not-a-number = Нужен номер хода, например 1. Или q, чтобы выйти.
term-error-out-of-range = Такого хода нет: введи число от 1 до { $count }.
term-you-are-out = Твои карты кончились, доигрывают остальные.
term-bye = Игра прервана. До встречи!

## You, at the keyboard: the log's events in the second person (the same words as table.ftl).
term-you-attacked = Ты ходишь: { $cards }
term-you-threw-in = Ты подкидываешь: { $cards }
term-you-covered = Ты кроешь { $on } картой { $card }
term-you-transferred = Ты переводишь картой { $card }, теперь отбивается { $target }
term-transferred-to-you = { $name } переводит картой { $card }, теперь отбиваешься ты
term-you-passed = Ты: пас
term-you-declared-take = Ты: «Беру!»
term-you-took =
    Ты берёшь { $count ->
        [one] { $count } карту
        [few] { $count } карты
        [many] { $count } карт
       *[other] { $count } карты
    }
term-you-beaten-off =
    Ты отбиваешься: бито, в отбой { $count ->
        [one] уходит { $count } карта
        [few] уходят { $count } карты
        [many] уходят { $count } карт
       *[other] уходят { $count } карты
    }
term-you-drew =
    Ты добираешь { $count ->
        [one] { $count } карту
        [few] { $count } карты
        [many] { $count } карт
       *[other] { $count } карты
    }
term-you-player-out = Ты выходишь из игры: { $place }
term-bout-you-attack = Новый заход: ходишь ты, отбивается { $defender }
term-bout-you-defend = Новый заход: ходит { $attacker }, отбиваешься ты
term-you-durak = 🤡 Ты остаёшься в дураках!
term-you-exchanged = Ты меняешь { $card } на открытый козырь { $took }
term-you-trump-changed = Ты берёшь нижнюю карту { $card }: теперь козырь — её масть
term-you-epaulettes = 🎖 Ты остаёшься дураком с погонами!
term-you-resigned = Ты встаёшь из-за стола
term-you-lowest-trump = Первый ход — твой: у тебя младший козырь { $card }
term-you-misplayed-throw-in = Ты подкидываешь { $card }, а такого достоинства на столе нет
term-you-misplayed-cover = Ты кроешь { $on } картой { $card }, а она не бьёт
term-you-laid-face-down-attack = Ты ходишь картой рубашкой вверх
term-you-laid-face-down-cover = Ты кладёшь карту рубашкой вверх на { $on }
term-you-answered = Ты отбиваешься: { $card } на { $attack }
term-you-believed = Ты: «Верю» — карты уходят в отбой не открытыми
term-you-doubted =
    Ты: «Не верю» — { $count ->
        [one] открыта
       *[other] открыты
    } { $covers }: { $beaten ->
        [yes] всё покрыто верно
       *[no] покрыто неверно
    }

## Your part in the bout on your own seat line (role-* of table.ftl, second person).
term-you-role-attacker = ходишь
term-you-role-defender = отбиваешься
term-you-role-taking = берёшь
term-you-role-thrower = подкидываешь

## The end of a game: the summary (table-* and series-* lines), the seed, what next.
term-games-played = Сыграно игр: { $count }
term-seed = Сид: { $seed }. Та же первая раздача: { $command }
term-after-game = Что дальше?
term-prompt-next = Твой выбор:
term-again = ещё раз
term-save = сохранить запись
term-leave = выйти
term-saved = Запись сохранена: { $path }. Повторить её: python -m engine.replay { $path }
term-save-failed = Не удалось сохранить запись: { $error }
term-goodbye = Спасибо за игру. До встречи!

## Several cards of one rank: first the rank, then how many, then which (if it matters).
term-choice-several-attack = ходить несколькими из { $cards }…
term-choice-several-throw = подкинуть несколько из { $cards }…
term-choice-count = { $cards }…
term-how-many = Сколько карт?
term-which = Какие?
term-back = назад

## The blind family (RULES.md section 14): each game's name and what it is, in one line
## (the game's start and durak-play --list-rules), and what the table shows of it.
term-game-reversed = Оборотный дурак
term-game-chinese = Китайский дурак
term-game-doubt = Неверный дурак
term-about-reversed = Видишь карты соперников, а свои — только рубашками: ходишь вслепую номером ячейки, а кто сыграл не ту карту, забирает весь стол.
term-about-chinese = Никто не видит ни своих карт, ни чужих: ходят одной картой рубашкой вверх, отвечают одной картой вслепую; не побил — забираешь обе.
term-about-doubt = Кроешь рубашкой вверх любой картой, хоть не бьющей: на «верю» всё уходит в отбой, на «не верю» карты открывают, и берёт тот, кто соврал или зря не поверил.
term-row = { $name }: { $cards }
term-misplays = Промахов в этой игре: { $count }
term-face-down-yours = { $back } — твоя карта рубашкой вверх: её видишь только ты
term-choice-cover = покрыть { $on }…
term-which-cover = Чем покрыть { $on }?
