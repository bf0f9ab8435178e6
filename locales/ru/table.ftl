# The group's table, the lobby, the private hand, house rules and engine errors.
# Ids: rank-*, suit-*, *-count (plural forms), table-*, role-*, event-*, lobby-*, hand-*,
# popup-*, btn-*, rules-*, lang-*, error-<engine code with dashes>.
# Texts are Telegram HTML: only <b> and <i>; never a bare <, > or &.

## Cards

rank-2 = 2
rank-3 = 3
rank-4 = 4
rank-5 = 5
rank-6 = 6
rank-7 = 7
rank-8 = 8
rank-9 = 9
rank-10 = 10
rank-J = В
rank-Q = Д
rank-K = К
rank-A = Т

suit-S = пики
suit-H = черви
suit-D = бубны
suit-C = трефы

## Counts with plural forms

cards-count =
    { $count ->
        [one] { $count } карта
        [few] { $count } карты
        [many] { $count } карт
       *[other] { $count } карты
    }
seconds-count =
    { $count ->
        [one] { $count } секунда
        [few] { $count } секунды
        [many] { $count } секунд
       *[other] { $count } секунды
    }
games-count =
    { $count ->
        [one] { $count } игра
        [few] { $count } игры
        [many] { $count } игр
       *[other] { $count } игры
    }
place = { $place }-е место
place-short = { $place }-е

## The group's table

table-title =
    🃏 <b>{ $transfer ->
        [yes] Переводной дурак
       *[no] Подкидной дурак
    }</b>
table-title-over = 🃏 <b>Игра окончена</b>
table-info =
    Козырь: <b>{ $trump }</b> ({ $suit }) · { $stock ->
        [0] колода пуста
       *[other] в колоде { $stock }
    } · в отбое { $discard }
table-player = { $mark } { $name } · { $cards }
table-player-role = { $mark } { $name } · { $cards } · <i>{ $role }</i>
table-player-out = 🏆 { $name } · { $place }
table-empty = Стол пока пуст.
table-on-table = На столе ({ $count } из { $limit }):
table-turn-open = 👉 Ходит <b>{ $attacker }</b>, отбивается <b>{ $defender }</b>.
table-turn-defend = 👉 Отбивается <b>{ $defender }</b>.
table-turn-taking = 👉 <b>{ $defender }</b> берёт.
table-turn-covered = 👉 Всё покрыто.
table-turn-throwers =
    { $count ->
        [one] Подкинуть может
       *[other] Подкинуть могут
    }: { $names }.
table-turn-beaten-or = Или бито.
table-log = <b>Что было:</b>
table-draw = 🤝 Ничья: все вышли, дурака нет.
table-order = <b>Кто как вышел:</b>
table-order-line = { $place }. { $name }
table-still-playing = Ещё играли: { $names }
table-order-durak =
    🤡 { $name } — дурак{ $why ->
        [leave] : встаёт из-за стола посреди игры
        [left] : выходит из группы посреди игры
        [removed] : больше не в группе
       *[none] {""}
    }
player-you = <b>{ $name }</b> (ты)
player-team = { $mark } { $name }
player-partner = { $mark } { $name } (партнёр)
table-team = { $mark } Команда: { $names }
table-team-yours = { $mark } Твоя команда: { $names }
table-team-lost = { $mark } Проиграла команда: { $names }
table-team-lost-yours = { $mark } Проиграла твоя команда: { $names }
table-order-durak-epaulettes = 🤡 { $name } — дурак с погонами!
table-ratings = <b>Рейтинг:</b>
table-rating-change = { $name }: { $before } → { $after } ({ $delta })
table-northern-pending = 🂠 Под колодой лежит закрытая карта: кто её возьмёт, покажет, и козырем станет её масть.
# The blind family (RULES.md section 14): the game's name, the misplays so far (R-REV-3),
# a face-down opening answered blind (R-CHI-2), face-down covers to judge (R-DOUBT-3).
table-title-blind =
    🃏 <b>{ $blind ->
        [reversed] Оборотный дурак
        [chinese] Китайский дурак
       *[doubt] Неверный дурень
    }</b>
table-misplays = ❗ Ошибок за игру: { $count }
table-turn-answer = 👉 <b>{ $attacker }</b> ходит картой рубашкой вверх, отвечает <b>{ $defender }</b>.
table-turn-judge = 👉 Всё покрыто рубашкой вверх. Решает <b>{ $attacker }</b>: «Верю» или «Не верю»?

role-attacker = ходит
role-defender = отбивается
role-taking = берёт
role-thrower = подкидывает

## Events of the table's log

event-attacked = { $name } ходит: { $cards }
event-threw-in = { $name } подкидывает: { $cards }
event-covered = { $name } кроет { $on } картой { $card }
event-transferred = { $name } переводит картой { $card }, теперь отбивается { $target }
event-passed = { $name }: пас
event-declared-take = { $name }: «Беру!»
event-took =
    { $name } берёт { $count ->
        [one] { $count } карту
        [few] { $count } карты
        [many] { $count } карт
       *[other] { $count } карты
    }
event-beaten-off =
    { $name } отбивается: бито, в отбой { $count ->
        [one] уходит { $count } карта
        [few] уходят { $count } карты
        [many] уходят { $count } карт
       *[other] уходят { $count } карты
    }
event-drew =
    { $name } добирает { $count ->
        [one] { $count } карту
        [few] { $count } карты
        [many] { $count } карт
       *[other] { $count } карты
    }
event-bout-started = Новый заход: ходит { $attacker }, отбивается { $defender }
event-player-out = { $name } выходит из игры: { $place }
event-resigned =
    { $name } { $why ->
        [left] выходит из группы
        [removed] больше не в группе
       *[leave] встаёт из-за стола
    }
event-timed-out =
    ⏰ { $name }: время вышло — { $kind ->
        [take] берёт
        [pass] пас
        [face-down] кладёт карту рубашкой вверх
        [believe] «Верю»
       *[attack] ходит { $cards }
    }
event-game-over-durak = 🤡 { $name } остаётся в дураках!
event-game-over-draw = 🤝 Ничья: дурака нет!
event-exchanged = 🔄 { $name } меняет { $card } на открытый козырь { $took }
event-trump-changed = 🔀 { $name } берёт последнюю карту колоды — { $card }: теперь козыри — { $suit }!
event-epaulettes = 🤡 { $name } — дурак с погонами!
event-trump-named =
    { $auto ->
        [yes] 🎲 { $name } не назвал козырь вовремя — жребий выбрал: { $symbol } { $suit }
       *[no] 🗣 { $name } называет козырь: { $symbol } { $suit }
    }
# The blind family (RULES.md section 14). A card laid face down is never named; a misplay
# is followed by event-took for the misplayer, a judged table by event-took or
# event-beaten-off. In reversed the deal shows everybody the lowest trump and its holder, who
# attacks first (R-BLIND-5); the holder's own table says which slot it went back to.
event-lowest-trump = Первый ход — { $name }: у этого игрока младший козырь { $card }
event-misplayed-throw-in = { $name } подкидывает { $card }, а такого достоинства на столе нет
event-misplayed-cover = { $name } кроет { $on } картой { $card }, а она не бьёт
event-laid-face-down-attack = { $name } ходит картой рубашкой вверх
event-laid-face-down-cover = { $name } кладёт карту рубашкой вверх на { $on }
event-answered = { $name } отбивается: { $card } на { $attack }
event-believed = { $name }: «Верю» — карты уходят в отбой не открытыми
event-doubted =
    { $name }: «Не верю» — { $count ->
        [one] открыта
       *[other] открыты
    } { $covers }: { $beaten ->
        [yes] всё покрыто верно
       *[no] покрыто неверно
    }

## Lobby

lobby-gathering = Собираем игроков!
lobby-solo = Игра с ботами: добавь от одного до пяти соперников и жми «Начать».
lobby-solo-hint = Правила этой игры — твои: /settings здесь же.
lobby-rules = Правила: { $rules }
lobby-players = Игроки ({ $count } из { $max }):
lobby-player = { $place }. { $name }
lobby-computer = { $place }. { $name } — компьютер, { $level }
lobby-nobody = Пока никого. Жми «Играю», чтобы сесть за стол.
lobby-hint = Играть можно вдвоём и больше. Когда все в сборе, жмите «Начать».
lobby-full = Стол полон.
lobby-teams = <b>Команды</b> (сядут через одного):
lobby-naming = 🗣 <b>{ $name }</b> сдаёт и называет козырь: выбери масть.

## The private hand

hand-cards = Твои карты ({ $count }): { $cards }
hand-no-cards = У тебя нет карт.
hand-attack = 👉 Твой ход! Отбивается { $defender }. Выбери карту (или несколько одного достоинства).
hand-defend = 👉 Отбивайся: выбери карту, чтобы покрыть, или бери.
hand-defend-transfer = 👉 Отбивайся: покрой карту, переведи (↪️) или бери.
hand-defend-transfer-only = 👉 Нечем покрыть: переведи (↪️) или бери.
hand-defend-take = 👉 Нечем покрыть — остаётся брать.
hand-throw = 👉 Можно подкинуть { $more } или спасовать. Отбивается { $defender }.
hand-throw-covered = 👉 Всё покрыто. Подкинешь { $more } или бито?
hand-throw-taking = 👉 { $defender } берёт. Подкинешь вдогонку { $more }?
hand-throw-more =
    { $left ->
        [1] ещё одну карту
        [one] ещё до { $left } карты
       *[other] ещё до { $left } карт
    }
hand-pick-target = 👉 Кроешь картой { $card }. Какую карту покрыть?
hand-taking-wait = Ты берёшь. Ждём, подкинут ли ещё.
hand-wait = Ждём: { $names }.
hand-deadline = ⏰ Время на решение — до { $time }
hand-timed-out =
    ⏰ Время вышло — { $kind ->
        [take] ты берёшь.
        [pass] за тебя сказан пас.
        [slot] бот сходил за тебя картой из первой ячейки.
        [face-down] бот положил за тебя карту рубашкой вверх.
        [answer] бот отбился за тебя картой из первой ячейки.
        [believe] за тебя сказано «верю».
       *[attack] бот сходил за тебя младшей картой.
    }
hand-out = 🏆 Карт больше нет — ты вне игры: { $place }. Партия идёт дальше, она видна и здесь.
# The blind family: a hand its player may not see is a row of backs, one per slot (R-BLIND-2);
# in reversed the other hands show face up, slot by slot (R-REV-1).
hand-slots = Твои карты ({ $count }), ты их не видишь: { $slots }
hand-lowest-trump-slot = { $slot } — это { $card }: твой младший козырь, его показали всем.
hand-rows = <b>Чужие карты</b> (по ячейкам, слева направо):
hand-row = { $name }: { $cards }
hand-attack-slot = 👉 Твой ход! Отбивается { $defender }. Выбери ячейку: карта из неё откроется на столе.
hand-attack-face-down = 👉 Твой ход! Отбивается { $defender }. Выбери ячейку: карта ляжет рубашкой вверх.
hand-defend-slot = 👉 Отбивайся: выбери ячейку, чтобы покрыть { $on }, или бери. Не побьёт — заберёшь весь стол.
hand-defend-slot-target = 👉 Отбивайся: выбери, какую карту покрыть, или бери. Не побьёт — заберёшь весь стол.
hand-pick-slot = 👉 Кроешь { $on }: выбери ячейку. Не побьёт — заберёшь весь стол.
hand-answer = 👉 Отвечай: выбери ячейку. Побьёт — обе карты уйдут в отбой, нет — заберёшь обе.
hand-throw-risk = 🂠 Подкидываешь не глядя: не то достоинство — заберёшь весь стол.
hand-defend-doubt = 👉 Кроешь рубашкой вверх любой картой — можно блефовать — или бери сразу.
hand-defend-doubt-rest = 👉 Покрой рубашкой вверх и остальные карты.
hand-judge = 👉 { $defender } кроет всё рубашкой вверх. Решай: «Верю» — карты уйдут в отбой не открытыми; «Не верю» — их откроют, и кто неправ, заберёт весь стол.
hand-judge-wait = Твои карты на столе лежат рубашкой вверх, их видишь только ты. Ждём: поверит ли { $attacker }?

popup-hand = Твои карты ({ $count }): { $cards }. Козырь { $trump }
popup-no-cards = У тебя нет карт.
popup-hand-unseen = Свои карты ты не видишь: у тебя { $cards }, ходи ячейками 🂠1…🂠{ $count }. Козырь { $trump }

## Buttons

btn-join = ✋ Играю
btn-leave = 🚪 Выйти
btn-add-computer = 🤖 Добавить бота
btn-remove-computer = 🤖 Убрать бота
btn-add-easy = 🤖 + лёгкий
btn-add-normal = 🤖 + средний
btn-add-hard = 🤖 + сильный
btn-start = ▶️ Начать
btn-again = 🔁 Сыграть ещё
btn-my-cards = 🃏 Мои карты
btn-take = 🫴 Беру
btn-pass = Пас
btn-pass-beaten = ✅ Бито
btn-pass-taking = Хватит, пусть берёт
btn-transfer = ↪️ { $card }
btn-cover = Покрыть { $on }
btn-back = ↩️ Назад
btn-team = 🔀 Сменить команду
btn-trump = { $symbol } { $suit }
btn-exchange = 🔄 { $card } ↔ { $took }
btn-exchange-short = 🔄 Обмен
# The blind family (RULES.md section 14): a card unseen is the back of its slot (from 1).
btn-slot = 🂠{ $slot }
btn-slot-cover = 🂠{ $slot } → { $on }
btn-believe = ✅ Верю
btn-doubt = ❌ Не верю

## House rules: one line for the lobby

rules-line-deck =
    { $deck ->
        [one] { $deck } карта
        [few] { $deck } карты
        [many] { $deck } карт
       *[other] { $deck } карты
    }
rules-line-players = до { $count } игроков
rules-line-throw-in-neighbors = подкидывают соседи
rules-line-throw-in-all = подкидывают все
rules-line-throw-in-neighbors-first-rank = соседи подкидывают любое, остальные — первое достоинство
rules-line-first-bout-limit-first-bout = в первом заходе до 5 карт
rules-line-first-bout-limit-until-first-beaten = до первого отбоя до 5 карт
rules-line-transfer-on = с переводом
rules-line-transfer-off = без перевода
rules-line-timeout = { $seconds } с на ход
rules-line-timeout-off = без таймера
rules-line-series = серия из { $count } игр
rules-line-variant = { $name }: { $value }

## House rules explained, one line each (/rules)

rules-title = <b>Правила этого чата</b>
rules-title-game = <b>Правила стола, за которым ты сидишь</b>
rules-title-private = <b>Правила твоей игры с ботами</b> (/play здесь; поменять — /settings)
rules-deck =
    Колода: { $deck ->
        [24] 24 карты, от девятки до туза.
        [52] 52 карты, от двойки до туза.
       *[other] { $deck } карт, от шестёрки до туза.
    }
rules-max-players = За одним столом — от 2 до { $count } игроков.
rules-throw-in-neighbors = Подкидывают только двое: тот, кто ходит, и сосед отбивающегося слева.
rules-throw-in-all = Подкидывать могут все игроки, кроме отбивающегося.
rules-throw-in-neighbors-first-rank = Двое соседей отбивающегося подкидывают любое достоинство со стола, остальные — только достоинство первой карты захода.
rules-first-bout-limit-none = Уже в первом заходе можно подкинуть до 6 карт.
rules-first-bout-limit-first-bout = В самом первом заходе игры — не больше 5 карт, дальше до 6.
rules-first-bout-limit-until-first-beaten = Пока никто ни разу не отбился, в заходе не больше 5 карт.
rules-no-trump-start-dealer-left = Если после сдачи ни у кого нет козыря, первым ходит сосед сдающего слева.
rules-no-trump-start-random = Если после сдачи ни у кого нет козыря, первого ходящего выбирает жребий.
rules-next-game-start-from-under-fool = Следующую игру начинает сосед дурака слева: ход «из-под дурака».
rules-next-game-start-under-fool = Следующую игру ходят «под дурака»: дурак отбивается первым.
rules-next-game-start-lowest-trump = Каждую игру первым ходит тот, у кого младший козырь.
rules-transfer-on = Переводной: отбивающийся может перевести атаку дальше картой того же достоинства, пока ничего не покрыто.
rules-transfer-off = Переводить нельзя: играем в подкидного.
rules-variant = { $words } — { $about }.
rules-turn-timeout = На ход { $seconds }; кто не успел, за того ходит бот: берёт, пасует или ходит младшей картой.
rules-turn-timeout-off = Время на ход не ограничено.
rules-series =
    { $count ->
        [1] Одна игра, без серии.
       *[other] Серия из { $count } игр, бот считает, кто сколько раз остался в дураках.
    }
rules-language = Язык бота в этом чате: { $language }.
rules-language-game = Язык бота за этим столом: { $language }.
rules-ai-level = Компьютерный игрок (🤖 Добавить бота) садится за стол с уровнем «{ $level }».
ai-level-easy = лёгкий
ai-level-normal = средний
ai-level-hard = сильный

lang-ru = русский
lang-uk = украинский

## Engine refusals: error-<code with dashes>

error-game-over = Игра уже окончена.
error-unknown-player = Тебя нет среди игроков этого стола.
error-player-out = Ты уже вне игры.
error-unknown-action = Такого хода нет.
error-bout-already-opened = Заход уже начат: теперь только подкидывать.
error-not-your-turn = Сейчас не твой ход.
error-no-cards = Выбери хотя бы одну карту.
error-unknown-card = Такой карты нет.
error-duplicate-card = Одна и та же карта названа дважды.
error-card-not-in-hand = У тебя нет этой карты.
error-mixed-ranks = Заходить можно одной картой или несколькими одного достоинства.
error-rank-not-on-table = Подкидывать можно только достоинства, которые уже есть на столе.
error-only-first-rank = Тебе можно подкидывать только достоинство первой карты захода.
error-over-limit = Больше карт в этот заход нельзя.
error-bout-not-opened = Заход ещё не начат.
error-defender-cannot-throw = Отбивающийся не подкидывает.
error-not-a-thrower = В этот заход ты не подкидываешь.
error-already-passed = Пас уже сказан: жди, пока на столе что-то изменится.
error-attacker-has-priority = Сначала подкидывает тот, кто ходит, или пасует.
error-defender-cannot-pass = Отбивающийся не пасует: покрой карту или бери.
error-not-defender = Это может только отбивающийся.
error-already-taking = Ты уже берёшь.
error-nothing-to-take = Всё покрыто, брать нечего.
error-not-uncovered = Эта карта уже покрыта или её нет на столе.
error-does-not-beat = Эта карта не бьёт ту.
error-transfer-disabled = За этим столом не переводят.
error-transfer-after-cover = Переводить можно только пока ничего не покрыто.
error-transfer-rank-mismatch = Переводят картой того же достоинства.
error-transfer-too-many = Перевести нельзя: у следующего игрока не хватит карт или карт будет слишком много.
error-transfer-first-bout = В первом заходе игры переводить нельзя.
error-exchange-disabled = Обмен козырной шестёрки за этим столом не играют.
error-exchange-too-late = Менять уже поздно: в колоде меньше двух карт.
error-no-trump-six = Менять нечего: у тебя нет младшего козыря.
error-epaulette-attack = Погоны не кроют и не переводят — только брать.
error-queen-of-hearts-covered = Дамой червей отбились: в этот заход больше не подкидывают.
error-hand-unseen = Свои карты ты не видишь: ходи картой из ячейки (🂠1, 🂠2…).
error-slots-not-played = За этим столом карты видны: называй карту, а не ячейку.
error-no-such-slot = Такой ячейки нет: столько карт у тебя нет.
error-attack-face-down = Заходная карта лежит рубашкой вверх: назови только свою ячейку.
error-no-throw-in = За этим столом не подкидывают.
error-no-take = Здесь не берут: отбивайся одной из своих карт.
error-take-after-cover = Брать можно только сразу: ты уже начал крыть.
error-nothing-to-judge = Сейчас некому говорить «верю» или «не верю».
error-unknown = Так сейчас нельзя.
