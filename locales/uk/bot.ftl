# The bot's own words: command replies, pop-ups, the private chat, /help, and the command
# menu. Ids: reply-*, answer-* (pop-ups, at most 200 characters), start-*, stopped-*, gone-*,
# button-*, help, command-*. Texts are Telegram HTML: never a bare <, > or &.

## Replies in the group

reply-anonymous = Анонімний адмін не може сісти за стіл: вимкни анонімність або напиши від свого імені.
reply-exists = За цим столом уже грають або збираються — ось він ☝️. Завершити гру: /stop
reply-need-start =
    { $name }, спершу відкрий мене в особистих повідомленнях і натисни «Старт» — кнопка нижче. Ти одразу сядеш за стіл, а карти приходитимуть туди.
button-open-bot = 🃏 Відкрити бота
button-webapp = 🃏 Стіл
reply-already-joined = Ти вже за столом.
reply-lobby-full = Стіл повний.
reply-no-lobby = Зараз ніхто не збирається грати. Новий стіл: /newgame
reply-game-running = Гра вже йде. Дочекайтеся кінця або зупиніть її: /stop
reply-not-joined = Тебе немає за столом.
reply-not-allowed-start = Почати гру може лише той, хто зібрав стіл, або адмін групи.
reply-not-allowed-stop = Зупинити гру може лише той, хто зібрав стіл, або адмін групи.
reply-not-allowed-remove-computer = Прибрати бота може лише той, хто зібрав стіл, або адмін групи.
reply-too-few = Потрібно щонайменше два гравці.
reply-teams-pairs-count = Командами парами грають учотирьох або вшістьох. Хай за стіл сяде або встане хтось (можна покликати бота: /addbot), або вимкніть команди: /set teams off
reply-teams-triples-count = Командами трійками грають тільки вшістьох. Хай за стіл сяде або встане хтось (можна покликати бота: /addbot), або виберіть /set teams pairs чи /set teams off
reply-no-game = Зараз немає гри.
reply-stale-lobby = Цей стіл уже закритий.
reply-no-teams = У цій грі немає команд: їх вмикають у /settings.
reply-not-dealer = Козир називає той, хто роздає.
reply-not-player = Ти не граєш за цим столом.
reply-no-computer = За столом немає ботів.
reply-no-person = За столом потрібна хоча б одна людина.
reply-solo-exists = Гра вже триває — вона вище в цьому чаті. Закінчити її: /stop
reply-bad-level = Рівні бота: easy (легкий), normal (середній), hard (сильний). Наприклад: /addbot hard
reply-stopped = 🛑 { $name } зупиняє гру.
reply-unavailable = Бот зараз не може нічого зберегти, нічого не змінилося. Спробуй за хвилину.
reply-busy = Забагато всього одразу — спробуй ще раз.
reply-updating = Бот зараз оновлюється, нічого не змінилося. Спробуй ще раз за хвилину.
reply-admin-unknown = Не вдалося дізнатися в Telegram, чи ти адмін, тому нічого не змінилося. Спробуй ще раз.
reply-group-only = Ця команда працює в групі: додай мене до групи з друзями й напиши там /newgame.
reply-not-a-person = Цю команду треба писати від свого імені, а не від імені каналу чи групи.
reply-private-only = Цю команду пиши мені в особисті: там вона стосується лише тебе.

## Pop-ups

answer-created = Новий стіл зібрано!
answer-joined = Ти за столом!
answer-left = Тебе більше немає за столом.
answer-started = Поїхали! Карти — у мене в особистих.
answer-exists = Тут уже збирається новий стіл.
answer-already-joined = Ти вже за столом.
answer-lobby-full = Стіл повний.
answer-no-lobby = Цей стіл уже не збирається.
answer-game-running = Гра вже йде.
answer-not-joined = Тебе немає за столом.
answer-not-allowed-start = Почати гру може лише той, хто зібрав стіл, або адмін групи.
answer-not-allowed-stop = Зупинити гру може лише той, хто зібрав стіл, або адмін групи.
answer-not-allowed-remove-computer = Прибрати бота може лише той, хто зібрав стіл, або адмін групи.
answer-too-few = Потрібно щонайменше два гравці.
answer-teams-pairs-count = Командами парами грають учотирьох або вшістьох. Хай за стіл сяде або встане хтось (можна покликати бота: /addbot), або вимкніть команди: /set teams off
answer-teams-triples-count = Командами трійками грають тільки вшістьох. Хай за стіл сяде або встане хтось (можна покликати бота: /addbot), або виберіть /set teams pairs чи /set teams off
answer-no-game = Зараз немає гри.
answer-stale-lobby = Ці кнопки застаріли: дивись новіше повідомлення.
answer-no-teams = У цій грі немає команд: їх вмикають у /settings.
answer-not-dealer = Козир називає той, хто роздає.
answer-team-switched = 🔀 Ти в іншій команді.
answer-trump-named = Козир названо — роздаю!
answer-not-player = Це не твоя гра.
answer-computer-added = 🤖 Бот за столом.
answer-computer-removed = 🤖 Бот пішов з-за столу.
answer-no-computer = За столом немає ботів.
answer-no-person = За столом потрібна хоча б одна людина.
answer-stale = Ця клавіатура застаріла — на столі вже інше. Дивись свіже повідомлення.
answer-game-over = Гра вже закінчилася.
answer-malformed = Незрозуміла кнопка.
answer-unavailable = Бот зараз не може зберегти хід, нічого не змінилося. Натисни ще раз за хвилину.
answer-busy = Забагато натискань одразу — натисни ще раз.
answer-updating = Бот зараз оновлюється, хід не зроблено. Натисни ще раз за хвилину.
answer-admin-unknown = Не вдалося дізнатися в Telegram, чи ти адмін, тому нічого не змінилося. Спробуй ще раз.

## The private chat

start-welcome =
    Привіт, { $name }! Я роздаю карти в підкидного дурня.
    Додай мене до групи з друзями й напиши там /newgame. Карти та кнопки для ходів приходитимуть сюди, в особисті.
    Усі команди: /help
start-joined = Готово, { $name }, ти за столом! Повертайся до групи. Коли гра почнеться, карти прийдуть сюди.
start-already-joined = Ти вже за цим столом. Повертайся до групи!
start-lobby-full = На жаль, стіл уже повний.
start-no-lobby = Цей стіл уже не збирається. Попроси в групі зібрати новий: /newgame
start-game-running = Гра за цим столом уже почалася — сядеш у наступну.
start-not-member = За цей стіл сідають лише учасники групи. Вступи до групи й натисни «Граю» там.
# A join link that names no game greets like /start; one of another game says it is gone.
start-bad-link = { start-welcome }
start-stale-lobby = { start-no-lobby }

## What the bot keeps about a person: /mydata, /forget (in private)

mydata-title = <b>Що я зберігаю про тебе</b> (id у Telegram: { $id })
mydata-nothing = Нічого: ні статистики, ні столів, ні налаштувань.
mydata-started = • Позначка, що мені можна писати тобі в особисті (ти натискаєш «Старт»).
mydata-here = у цих особистих
mydata-group = група { $chat }
mydata-playing = • Стіл, за яким ти сидиш ({ $where }), з твоїм іменем «{ $name }»: поки гра йде.
mydata-finished = • Завершена гра ({ $where }) з твоїм іменем «{ $name }»: зберігається добу для «Зіграти ще».
mydata-chat = • Статистика: { $where }, ім'я «{ $name }», ігор: { $games }, у дурнях: { $durak }, нічиїх: { $draws }.
mydata-totals = • Разом в усіх чатах: ігор: { $games }, у дурнях: { $durak }, нічиїх: { $draws }.
mydata-versus = • Ігри з ботами ({ $level }): ігор: { $games }, у дурнях: { $durak }, нічиїх: { $draws }.
mydata-rating = • Рейтинг: { $points } (ігор з рейтингом: { $games }) і в яких групах ти їх зіграв, з твоїм ім'ям там.
mydata-rules = • Твої правила для ігор з ботами тут, в особистих.
mydata-footer = Статистика й правила зберігаються, поки ти їх не видалиш; стіл — поки йде гра (тиждень без ходів — і він зникає). Видалити все: /forget
forget-ask = Видалити все, що я зберігаю про тебе (перелік: /mydata)? Повернути це буде не можна.
forget-ask-playing = Столи, за якими ти зараз сидиш ({ $count }), дограються як є, з твоїм іменем: їхній підсумок зітре наступний /forget.
button-forget-yes = 🗑 Видалити
button-forget-no = Скасувати
forget-done = 🗑 Готово: усе, що я зберігав про тебе, видалено.
forget-cancelled = Нічого не видалено.
answer-forget-stale = Ця кнопка застаріла, нічого не видалено. Напиши /forget ще раз.
# What a finished game shows instead of the name of a player who used /forget.
player-forgotten = гравець

## A stopped game

stopped-table = 🛑 <b>Гру зупинено</b> ({ $name }).
stopped-hand = 🛑 Гру зупинено.

## The bot can no longer show a lobby or game in its group (private messages to its players)

gone-removed =
    🚪 Мене прибрали з групи «{ $group }». { $lobby ->
        [yes] Стіл, що там збирався, закрито.
       *[no] Гру там закінчено, її не зараховано.
    }
gone-removed-untitled =
    🚪 Мене прибрали з групи. { $lobby ->
        [yes] Стіл, що там збирався, закрито.
       *[no] Гру там закінчено, її не зараховано.
    }
gone-clash =
    🛑 Група стала супергрупою, і там уже збирають нову гру. { $lobby ->
        [yes] Стіл, що збирався раніше, закрито.
       *[no] Попередню гру закінчено, її не зараховано.
    }

## /help

help =
    🃏 <b>Підкидний дурень</b>
    Граємо в групі, карти в кожного в особистих з ботом; там само видно весь стіл і останні ходи.

    /newgame — зібрати стіл (або /durak)
    /join — сісти за стіл
    /leave — встати з-за столу
    /addbot — посадити за стіл бота (/addbot easy, normal або hard); /removebot — прибрати
    /play — в особистих зі мною: гра з ботами, сам на сам або проти кількох
    /startgame — роздати карти (той, хто зібрав стіл, або адмін)
    /stop — зупинити гру (той, хто зібрав стіл, або адмін)
    /rules — правила цього чату (в особистих — столу, за яким ти сидиш)
    /settings — налаштування чату: колода, хто підкидає, переведення… (змінюють адміни)
    /set — змінити одне правило: /set throw_in all; просто /set — усі ключі
    /stats — статистика чату: хто рідше в дурнях, і твій рейтинг (в особистих — твої)
    /top — рейтинг гравців групи (за кожну гру: хто раніше вийшов — той вище)
    /replay — остання гра: запис, перевірка колоди й повтор по ходах
    /help — ця довідка

    Щоб грати, один раз натисни «Старт» у бота в особистих: туди прийдуть твої карти з кнопками ходів. Кнопка «🃏 Мої карти» під столом у групі показує твої карти у спливному вікні — їх бачиш лише ти.

## The command menu

command-newgame = Зібрати стіл для гри
command-join = Сісти за стіл
command-leave = Встати з-за столу
command-addbot = Посадити за стіл бота: /addbot easy|normal|hard
command-removebot = Прибрати бота з-за столу
command-play = Зіграти з ботами тут, в особистих
command-startgame = Роздати карти
command-stop = Зупинити гру
command-rules = Правила цього чату
command-top = Рейтинг гравців групи
command-replay = Остання гра: запис і повтор
command-help = Як грати
command-start = Почати: сюди приходитимуть карти
command-mydata = Що бот зберігає про мене
command-forget = Видалити все, що бот зберігає про мене

## Ratings: /top in a group, a person's own in /stats

top-title = 🏆 <b>Рейтинг групи</b>
top-rule = Хто зіграв тут { $min } і більше рейтингових ігор; 🤖 — боти для порівняння.
top-line = { $place }. { $name } — <b>{ $points }</b> ({ $games })
top-computer = 🤖 { $level } — { $points }
top-empty = Тут ще ніхто не зіграв { $min } рейтингових ігор. Рейтинг рахується за кожну закінчену гру: хто раніше вийшов — той вище, дурень нижче за всіх.
stats-rating-here = Твій рейтинг: <b>{ $points }</b>, { $place }-е місце в групі з { $count }.
stats-rating-me = Рейтинг: <b>{ $points }</b>, { $place }-е місце з { $count } ({ $games }).
