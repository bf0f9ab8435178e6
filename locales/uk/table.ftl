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

suit-S = піки
suit-H = чирви
suit-D = бубни
suit-C = хрести

## Counts with plural forms

cards-count =
    { $count ->
        [one] { $count } карта
        [few] { $count } карти
        [many] { $count } карт
       *[other] { $count } карти
    }
seconds-count =
    { $count ->
        [one] { $count } секунда
        [few] { $count } секунди
        [many] { $count } секунд
       *[other] { $count } секунди
    }
games-count =
    { $count ->
        [one] { $count } гра
        [few] { $count } гри
        [many] { $count } ігор
       *[other] { $count } гри
    }
place =
    { $place ->
        [1] 1-ше місце
        [2] 2-ге місце
        [3] 3-тє місце
        [7] 7-ме місце
        [8] 8-ме місце
       *[other] { $place }-те місце
    }
place-short =
    { $place ->
        [1] 1-ше
        [2] 2-ге
        [3] 3-тє
        [7] 7-ме
        [8] 8-ме
       *[other] { $place }-те
    }

## The group's table

table-title =
    🃏 <b>{ $transfer ->
        [yes] Перевідний дурень
       *[no] Підкидний дурень
    }</b>
table-title-over = 🃏 <b>Гру закінчено</b>
table-info =
    Козир: <b>{ $trump }</b> ({ $suit }) · { $stock ->
        [0] колода порожня
       *[other] у колоді { $stock }
    } · у відбої { $discard }
table-player = { $mark } { $name } · { $cards }
table-player-role = { $mark } { $name } · { $cards } · <i>{ $role }</i>
table-player-out = 🏆 { $name } · { $place }
table-empty = Стіл поки порожній.
table-on-table = На столі ({ $count } з { $limit }):
table-turn-open = 👉 Ходить <b>{ $attacker }</b>, відбивається <b>{ $defender }</b>.
table-turn-defend = 👉 Відбивається <b>{ $defender }</b>.
table-turn-taking = 👉 <b>{ $defender }</b> бере.
table-turn-covered = 👉 Усе покрито.
table-turn-throwers =
    { $count ->
        [one] Підкинути може
       *[other] Підкинути можуть
    }: { $names }.
table-turn-beaten-or = Або бито.
table-log = <b>Що було:</b>
table-draw = 🤝 Нічия: усі вийшли, дурня немає.
table-order = <b>Хто як вийшов:</b>
table-order-line = { $place }. { $name }
table-still-playing = Ще грали: { $names }
table-order-durak =
    🤡 { $name } — дурень{ $why ->
        [leave] : встає з-за столу посеред гри
        [left] : виходить із групи посеред гри
        [removed] : більше не в групі
       *[none] {""}
    }
player-you = <b>{ $name }</b> (ти)
player-team = { $mark } { $name }
player-partner = { $mark } { $name } (партнер)
table-team = { $mark } Команда: { $names }
table-team-yours = { $mark } Твоя команда: { $names }
table-team-lost = { $mark } Програла команда: { $names }
table-team-lost-yours = { $mark } Програла твоя команда: { $names }
table-order-durak-epaulettes = 🤡 { $name } — дурень з погонами!
table-ratings = <b>Рейтинг:</b>
table-rating-change = { $name }: { $before } → { $after } ({ $delta })
table-northern-pending = 🂠 Під колодою лежить закрита карта: хто її візьме, покаже, і козирем стане її масть.
# The blind family (RULES.md section 14): the game's name, the misplays so far (R-REV-3),
# a face-down opening answered blind (R-CHI-2), face-down covers to judge (R-DOUBT-3).
table-title-blind =
    🃏 <b>{ $blind ->
        [reversed] Оборотний дурень
        [chinese] Китайський дурень
       *[doubt] Невірний дурень
    }</b>
table-misplays = ❗ Помилок за гру: { $count }
table-turn-answer = 👉 <b>{ $attacker }</b> ходить картою сорочкою догори, відповідає <b>{ $defender }</b>.
table-turn-judge = 👉 Усе покрито сорочкою догори. Вирішує <b>{ $attacker }</b>: «Вірю» чи «Не вірю»?

role-attacker = ходить
role-defender = відбивається
role-taking = бере
role-thrower = підкидає

## Events of the table's log

event-attacked = { $name } ходить: { $cards }
event-threw-in = { $name } підкидає: { $cards }
event-covered = { $name } б'є { $on } картою { $card }
event-transferred = { $name } переводить картою { $card }, тепер відбивається { $target }
event-passed = { $name }: пас
event-declared-take = { $name }: «Беру!»
event-took =
    { $name } бере { $count ->
        [one] { $count } карту
        [few] { $count } карти
        [many] { $count } карт
       *[other] { $count } карти
    }
event-beaten-off =
    { $name } відбивається: бито, у відбій { $count ->
        [one] іде { $count } карта
        [few] ідуть { $count } карти
        [many] ідуть { $count } карт
       *[other] ідуть { $count } карти
    }
event-drew =
    { $name } добирає { $count ->
        [one] { $count } карту
        [few] { $count } карти
        [many] { $count } карт
       *[other] { $count } карти
    }
event-bout-started = Новий захід: ходить { $attacker }, відбивається { $defender }
event-player-out = { $name } виходить із гри: { $place }
event-resigned =
    { $name } { $why ->
        [left] виходить із групи
        [removed] більше не в групі
       *[leave] встає з-за столу
    }
event-timed-out =
    ⏰ { $name }: час вийшов — { $kind ->
        [take] бере
        [pass] пас
        [face-down] кладе карту сорочкою догори
        [believe] «Вірю»
       *[attack] ходить { $cards }
    }
event-game-over-durak = 🤡 { $name } залишається в дурнях!
event-game-over-draw = 🤝 Нічия: дурня немає!
event-exchanged = 🔄 { $name } міняє { $card } на відкритий козир { $took }
event-trump-changed = 🔀 { $name } бере останню карту колоди — { $card }: тепер козирі — { $suit }!
event-epaulettes = 🤡 { $name } — дурень з погонами!
event-trump-named =
    { $auto ->
        [yes] 🎲 { $name } не назвав козир вчасно — жереб вибрав: { $symbol } { $suit }
       *[no] 🗣 { $name } називає козир: { $symbol } { $suit }
    }
# The blind family (RULES.md section 14). A card laid face down is never named; a misplay
# is followed by event-took for the misplayer, a judged table by event-took or
# event-beaten-off. In reversed the deal shows everybody the lowest trump and its holder, who
# attacks first (R-BLIND-5); the holder's own table says which slot it went back to.
event-lowest-trump = Перший хід — { $name }: у цього гравця найменший козир { $card }
event-misplayed-throw-in = { $name } підкидає { $card }, а такого номіналу на столі немає
event-misplayed-cover = { $name } криє { $on } картою { $card }, а вона не б'є
event-laid-face-down-attack = { $name } ходить картою сорочкою догори
event-laid-face-down-cover = { $name } кладе карту сорочкою догори на { $on }
event-answered = { $name } відбивається: { $card } на { $attack }
event-believed = { $name }: «Вірю» — карти йдуть у відбій невідкритими
event-doubted =
    { $name }: «Не вірю» — { $count ->
        [one] відкрита
       *[other] відкриті
    } { $covers }: { $beaten ->
        [yes] усе покрито правильно
       *[no] покрито неправильно
    }

## Lobby

lobby-gathering = Збираємо гравців!
lobby-solo = Гра з ботами: додай від одного до п'яти суперників і тисни «Почати».
lobby-solo-hint = Правила цієї гри — твої: /settings тут же.
lobby-rules = Правила: { $rules }
lobby-players = Гравці ({ $count } з { $max }):
lobby-player = { $place }. { $name }
lobby-computer = { $place }. { $name } — комп'ютер, { $level }
lobby-nobody = Поки нікого. Тисни «Граю», щоб сісти за стіл.
lobby-hint = Грати можна удвох і більше. Коли всі зібралися, тисніть «Почати».
lobby-full = Стіл повний.
lobby-teams = <b>Команди</b> (сядуть через одного):
lobby-naming = 🗣 <b>{ $name }</b> роздає й називає козир: вибери масть.

## The private hand

hand-cards = Твої карти ({ $count }): { $cards }
hand-no-cards = У тебе немає карт.
hand-attack = 👉 Твій хід! Відбивається { $defender }. Вибери карту (або кілька одного номіналу).
hand-defend = 👉 Відбивайся: вибери карту, щоб покрити, або бери.
hand-defend-transfer = 👉 Відбивайся: покрий карту, переведи (↪️) або бери.
hand-defend-transfer-only = 👉 Нема чим покрити: переведи (↪️) або бери.
hand-defend-take = 👉 Нема чим покрити — доведеться брати.
hand-throw = 👉 Можна підкинути { $more } або спасувати. Відбивається { $defender }.
hand-throw-covered = 👉 Усе покрито. Підкинеш { $more } чи бито?
hand-throw-taking = 👉 { $defender } бере. Підкинеш навздогін { $more }?
hand-throw-more =
    { $left ->
        [1] ще одну карту
        [one] ще до { $left } карти
       *[other] ще до { $left } карт
    }
hand-pick-target = 👉 Криєш картою { $card }. Яку карту покрити?
hand-taking-wait = Ти береш. Чекаємо, чи підкинуть ще.
hand-wait = Чекаємо: { $names }.
hand-deadline = ⏰ Час на рішення — до { $time }
hand-timed-out =
    ⏰ Час вийшов — { $kind ->
        [take] ти береш.
        [pass] за тебе сказано пас.
        [slot] бот походив за тебе картою з першої комірки.
        [face-down] бот поклав за тебе карту сорочкою догори.
        [answer] бот відбився за тебе картою з першої комірки.
        [believe] за тебе сказано «вірю».
       *[attack] бот походив за тебе наймолодшою картою.
    }
hand-out = 🏆 Карт більше немає — ти поза грою: { $place }. Партія триває, її видно й тут.
# The blind family: a hand its player may not see is a row of backs, one per slot (R-BLIND-2);
# in reversed the other hands show face up, slot by slot (R-REV-1).
hand-slots = Твої карти ({ $count }), ти їх не бачиш: { $slots }
hand-lowest-trump-slot = { $slot } — це { $card }: твій найменший козир, його показали всім.
hand-rows = <b>Чужі карти</b> (за комірками, зліва направо):
hand-row = { $name }: { $cards }
hand-attack-slot = 👉 Твій хід! Відбивається { $defender }. Вибери комірку: карта з неї відкриється на столі.
hand-attack-face-down = 👉 Твій хід! Відбивається { $defender }. Вибери комірку: карта ляже сорочкою догори.
hand-defend-slot = 👉 Відбивайся: вибери комірку, щоб покрити { $on }, або бери. Не поб'є — забереш увесь стіл.
hand-defend-slot-target = 👉 Відбивайся: вибери, яку карту покрити, або бери. Не поб'є — забереш увесь стіл.
hand-pick-slot = 👉 Криєш { $on }: вибери комірку. Не поб'є — забереш увесь стіл.
hand-answer = 👉 Відповідай: вибери комірку. Поб'є — обидві карти підуть у відбій, ні — забереш обидві.
hand-throw-risk = 🂠 Підкидаєш наосліп: не той номінал — забереш увесь стіл.
hand-defend-doubt = 👉 Криєш сорочкою догори будь-якою картою — можна блефувати — або бери одразу.
hand-defend-doubt-rest = 👉 Покрий сорочкою догори й решту карт.
hand-judge = 👉 { $defender } криє все сорочкою догори. Вирішуй: «Вірю» — карти підуть у відбій невідкритими; «Не вірю» — їх відкриють, і хто неправий, забере весь стіл.
hand-judge-wait = Твої карти на столі лежать сорочкою догори, їх бачиш лише ти. Чекаємо: чи повірить { $attacker }?

popup-hand = Твої карти ({ $count }): { $cards }. Козир { $trump }
popup-no-cards = У тебе немає карт.
popup-hand-unseen = Своїх карт ти не бачиш: у тебе { $cards }, ходи комірками 🂠1…🂠{ $count }. Козир { $trump }

## Buttons

btn-join = ✋ Граю
btn-leave = 🚪 Вийти
btn-add-computer = 🤖 Додати бота
btn-remove-computer = 🤖 Прибрати бота
btn-add-easy = 🤖 + легкий
btn-add-normal = 🤖 + середній
btn-add-hard = 🤖 + сильний
btn-start = ▶️ Почати
btn-again = 🔁 Зіграти ще
btn-my-cards = 🃏 Мої карти
btn-take = 🫴 Беру
btn-pass = Пас
btn-pass-beaten = ✅ Бито
btn-pass-taking = Досить, хай бере
btn-transfer = ↪️ { $card }
btn-cover = Покрити { $on }
btn-back = ↩️ Назад
btn-team = 🔀 Змінити команду
btn-trump = { $symbol } { $suit }
btn-exchange = 🔄 { $card } ↔ { $took }
btn-exchange-short = 🔄 Обмін
# The blind family (RULES.md section 14): a card unseen is the back of its slot (from 1).
btn-slot = 🂠{ $slot }
btn-slot-cover = 🂠{ $slot } → { $on }
btn-believe = ✅ Вірю
btn-doubt = ❌ Не вірю

## House rules: one line for the lobby

rules-line-deck =
    { $deck ->
        [one] { $deck } карта
        [few] { $deck } карти
        [many] { $deck } карт
       *[other] { $deck } карти
    }
rules-line-players = до { $count } гравців
rules-line-throw-in-neighbors = підкидають сусіди
rules-line-throw-in-all = підкидають усі
rules-line-throw-in-neighbors-first-rank = сусіди підкидають будь-що, решта — перший номінал
rules-line-first-bout-limit-first-bout = у першому заході до 5 карт
rules-line-first-bout-limit-until-first-beaten = до першого відбою до 5 карт
rules-line-transfer-on = з переведенням
rules-line-transfer-off = без переведення
rules-line-timeout = { $seconds } с на хід
rules-line-timeout-off = без таймера
rules-line-series = серія з { $count } ігор
rules-line-variant = { $name }: { $value }

## House rules explained, one line each (/rules)

rules-title = <b>Правила цього чату</b>
rules-title-game = <b>Правила столу, за яким ти сидиш</b>
rules-title-private = <b>Правила твоєї гри з ботами</b> (/play тут; змінити — /settings)
rules-deck =
    Колода: { $deck ->
        [24] 24 карти, від дев'ятки до туза.
        [52] 52 карти, від двійки до туза.
       *[other] { $deck } карт, від шістки до туза.
    }
rules-max-players = За одним столом — від 2 до { $count } гравців.
rules-throw-in-neighbors = Підкидають лише двоє: той, хто ходить, і лівий сусід того, хто відбивається.
rules-throw-in-all = Підкидати можуть усі гравці, крім того, хто відбивається.
rules-throw-in-neighbors-first-rank = Двоє сусідів того, хто відбивається, підкидають будь-який номінал зі столу, решта — лише номінал першої карти заходу.
rules-first-bout-limit-none = Уже в першому заході можна підкинути до 6 карт.
rules-first-bout-limit-first-bout = У найпершому заході гри — не більше 5 карт, далі до 6.
rules-first-bout-limit-until-first-beaten = Поки ніхто жодного разу не відбився, у заході не більше 5 карт.
rules-no-trump-start-dealer-left = Якщо після роздачі ні в кого немає козиря, першим ходить лівий сусід того, хто роздавав.
rules-no-trump-start-random = Якщо після роздачі ні в кого немає козиря, того, хто ходить першим, обирає жереб.
rules-next-game-start-from-under-fool = Наступну гру починає лівий сусід дурня: хід «з-під дурня».
rules-next-game-start-under-fool = Наступну гру ходять «під дурня»: дурень відбивається першим.
rules-next-game-start-lowest-trump = Кожну гру першим ходить той, у кого найменший козир.
rules-transfer-on = Перевідний: той, хто відбивається, може перевести атаку далі картою того самого номіналу, поки нічого не покрито.
rules-transfer-off = Переводити не можна: граємо в підкидного.
rules-variant = { $words } — { $about }.
rules-turn-timeout = На хід { $seconds }; хто не встиг, за того ходить бот: бере, пасує або ходить найменшою картою.
rules-turn-timeout-off = Час на хід не обмежено.
rules-series =
    { $count ->
        [1] Одна гра, без серії.
       *[other] Серія з { $count } ігор, бот рахує, хто скільки разів залишився в дурнях.
    }
rules-language = Мова бота в цьому чаті: { $language }.
rules-language-game = Мова бота за цим столом: { $language }.
rules-ai-level = Комп'ютерний гравець (🤖 Додати бота) сідає за стіл із рівнем «{ $level }».
ai-level-easy = легкий
ai-level-normal = середній
ai-level-hard = сильний

lang-ru = російська
lang-uk = українська

## Engine refusals: error-<code with dashes>

error-game-over = Гру вже закінчено.
error-unknown-player = Тебе немає серед гравців цього столу.
error-player-out = Ти вже поза грою.
error-unknown-action = Такого ходу немає.
error-bout-already-opened = Захід уже почато: тепер лише підкидати.
error-not-your-turn = Зараз не твій хід.
error-no-cards = Вибери хоча б одну карту.
error-unknown-card = Такої карти немає.
error-duplicate-card = Ту саму карту названо двічі.
error-card-not-in-hand = У тебе немає цієї карти.
error-mixed-ranks = Заходити можна однією картою або кількома одного номіналу.
error-rank-not-on-table = Підкидати можна лише номінали, які вже є на столі.
error-only-first-rank = Тобі можна підкидати лише номінал першої карти заходу.
error-over-limit = Більше карт у цей захід не можна.
error-bout-not-opened = Захід ще не почато.
error-defender-cannot-throw = Той, хто відбивається, не підкидає.
error-not-a-thrower = У цей захід ти не підкидаєш.
error-already-passed = Пас уже сказано: чекай, поки на столі щось зміниться.
error-attacker-has-priority = Спершу підкидає той, хто ходить, або пасує.
error-defender-cannot-pass = Той, хто відбивається, не пасує: покрий карту або бери.
error-not-defender = Це може лише той, хто відбивається.
error-already-taking = Ти вже береш.
error-nothing-to-take = Усе покрито, брати нічого.
error-not-uncovered = Ця карта вже покрита або її немає на столі.
error-does-not-beat = Ця карта не б'є ту.
error-transfer-disabled = За цим столом не переводять.
error-transfer-after-cover = Переводити можна лише поки нічого не покрито.
error-transfer-rank-mismatch = Переводять картою того самого номіналу.
error-transfer-too-many = Перевести не можна: у наступного гравця не вистачить карт або карт буде забагато.
error-transfer-first-bout = У першому заході гри переводити не можна.
error-exchange-disabled = Обмін козирної шістки за цим столом не грають.
error-exchange-too-late = Міняти вже пізно: у колоді менше двох карт.
error-no-trump-six = Міняти нічого: у тебе немає молодшого козиря.
error-epaulette-attack = Погони не б'ють і не переводять — тільки брати.
error-queen-of-hearts-covered = Дамою чирв відбилися: у цей захід більше не підкидають.
error-hand-unseen = Своїх карт ти не бачиш: ходи картою з комірки (🂠1, 🂠2…).
error-slots-not-played = За цим столом карти видно: називай карту, а не комірку.
error-no-such-slot = Такої комірки немає: стільки карт у тебе немає.
error-attack-face-down = Заходова карта лежить сорочкою догори: назви лише свою комірку.
error-no-throw-in = За цим столом не підкидають.
error-no-take = Тут не беруть: відбивайся однією зі своїх карт.
error-take-after-cover = Брати можна лише одразу: ти вже почав бити.
error-nothing-to-judge = Зараз нема кому казати «вірю» чи «не вірю».
error-unknown = Так зараз не можна.
