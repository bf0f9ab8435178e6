# The bot's own words: command replies, pop-ups, the private chat, /help, and the command
# menu. Ids: reply-*, answer-* (pop-ups, at most 200 characters), start-*, stopped-*, gone-*,
# button-*, help, command-*. Texts are Telegram HTML: never a bare <, > or &.

## Replies in the group

reply-anonymous = Анонимный админ не может сесть за стол: отключи анонимность или напиши от своего имени.
reply-exists = За этим столом уже играют или собираются — вот он ☝️. Закончить игру: /stop
reply-need-start =
    { $name }, сначала открой меня в личке и нажми «Старт» — кнопка ниже. Ты сразу сядешь за стол, а карты будут приходить туда.
button-open-bot = 🃏 Открыть бота
button-webapp = 🃏 Стол
reply-already-joined = Ты уже за столом.
reply-lobby-full = Стол полон.
reply-no-lobby = Сейчас никто не собирается играть. Новый стол: /newgame
reply-game-running = Игра уже идёт. Дождитесь конца или остановите её: /stop
reply-not-joined = Тебя нет за столом.
reply-not-allowed-start = Начать игру может только тот, кто собрал стол, или админ группы.
reply-not-allowed-stop = Остановить игру может только тот, кто собрал стол, или админ группы.
reply-not-allowed-remove-computer = Убрать бота может только тот, кто собрал стол, или админ группы.
reply-too-few = Нужно хотя бы два игрока.
reply-teams-pairs-count = Командами парами играют вчетвером или вшестером. Пусть за стол сядет или встанет кто-нибудь (можно позвать бота: /addbot), или выключите команды: /set teams off
reply-teams-triples-count = Командами тройками играют только вшестером. Пусть за стол сядет или встанет кто-нибудь (можно позвать бота: /addbot), или выберите /set teams pairs или /set teams off
reply-no-game = Сейчас нет игры.
reply-stale-lobby = Этот стол уже закрыт.
reply-no-teams = В этой игре нет команд: их включают в /settings.
reply-not-dealer = Козырь называет тот, кто сдаёт.
reply-not-player = Ты не играешь за этим столом.
reply-no-computer = За столом нет ботов.
reply-no-person = За столом нужен хотя бы один человек.
reply-solo-exists = Игра уже идёт — она выше в этом чате. Закончить её: /stop
reply-bad-level = Уровни бота: easy (лёгкий), normal (средний), hard (сильный). Например: /addbot hard
reply-stopped = 🛑 { $name } останавливает игру.
reply-unavailable = Бот сейчас не может ничего сохранить, ничего не изменилось. Попробуй через минуту.
reply-busy = Слишком много всего сразу — попробуй ещё раз.
reply-updating = Бот сейчас обновляется, ничего не изменилось. Попробуй ещё раз через минуту.
reply-admin-unknown = Не получилось узнать у Telegram, админ ли ты, поэтому ничего не изменилось. Попробуй ещё раз.
reply-group-only = Эта команда работает в группе: добавь меня в группу с друзьями и напиши там /newgame.
reply-not-a-person = Эту команду нужно писать от своего имени, а не от имени канала или группы.
reply-private-only = Эту команду пиши мне в личку: там она касается только тебя.

## Pop-ups

answer-created = Новый стол собран!
answer-joined = Ты за столом!
answer-left = Тебя больше нет за столом.
answer-started = Поехали! Карты — у меня в личке.
answer-exists = Здесь уже собирается новый стол.
answer-already-joined = Ты уже за столом.
answer-lobby-full = Стол полон.
answer-no-lobby = Этот стол уже не собирается.
answer-game-running = Игра уже идёт.
answer-not-joined = Тебя нет за столом.
answer-not-allowed-start = Начать игру может только тот, кто собрал стол, или админ группы.
answer-not-allowed-stop = Остановить игру может только тот, кто собрал стол, или админ группы.
answer-not-allowed-remove-computer = Убрать бота может только тот, кто собрал стол, или админ группы.
answer-too-few = Нужно хотя бы два игрока.
answer-teams-pairs-count = Командами парами играют вчетвером или вшестером. Пусть за стол сядет или встанет кто-нибудь (можно позвать бота: /addbot), или выключите команды: /set teams off
answer-teams-triples-count = Командами тройками играют только вшестером. Пусть за стол сядет или встанет кто-нибудь (можно позвать бота: /addbot), или выберите /set teams pairs или /set teams off
answer-no-game = Сейчас нет игры.
answer-stale-lobby = Эти кнопки устарели: смотри сообщение поновее.
answer-no-teams = В этой игре нет команд: их включают в /settings.
answer-not-dealer = Козырь называет тот, кто сдаёт.
answer-team-switched = 🔀 Ты в другой команде.
answer-trump-named = Козырь назван — раздаю!
answer-not-player = Это не твоя игра.
answer-computer-added = 🤖 Бот за столом.
answer-computer-removed = 🤖 Бот встал из-за стола.
answer-no-computer = За столом нет ботов.
answer-no-person = За столом нужен хотя бы один человек.
answer-stale = Эта клавиатура устарела — стол уже изменился. Смотри свежее сообщение.
answer-game-over = Игра уже окончена.
answer-malformed = Непонятная кнопка.
answer-unavailable = Бот сейчас не может сохранить ход, ничего не изменилось. Нажми ещё раз через минуту.
answer-busy = Слишком много нажатий сразу — нажми ещё раз.
answer-updating = Бот сейчас обновляется, ход не сделан. Нажми ещё раз через минуту.
answer-admin-unknown = Не получилось узнать у Telegram, админ ли ты, поэтому ничего не изменилось. Попробуй ещё раз.

## The private chat

start-welcome =
    Привет, { $name }! Я раздаю карты в подкидного дурака.
    Добавь меня в группу с друзьями и напиши там /newgame. Карты и кнопки для ходов будут приходить сюда, в личку.
    Все команды: /help
start-joined = Готово, { $name }, ты за столом! Возвращайся в группу. Когда игра начнётся, карты придут сюда.
start-already-joined = Ты уже за этим столом. Возвращайся в группу!
start-lobby-full = Увы, стол уже полон.
start-no-lobby = Этот стол уже не собирается. Попроси в группе собрать новый: /newgame
start-game-running = Игра за этим столом уже началась — сядешь в следующую.
start-not-member = За этот стол садятся только участники группы. Вступи в группу и нажми «Играю» там.
# A join link that names no game greets like /start; one of another game says it is gone.
start-bad-link = { start-welcome }
start-stale-lobby = { start-no-lobby }

## What the bot keeps about a person: /mydata, /forget (in private)

mydata-title = <b>Что я храню о тебе</b> (id в Telegram: { $id })
mydata-nothing = Ничего: ни статистики, ни столов, ни настроек.
mydata-started = • Отметка, что мне можно писать тебе в личку (ты нажимаешь «Старт»).
mydata-here = в этой личке
mydata-group = группа { $chat }
mydata-playing = • Стол, за которым ты сидишь ({ $where }), с твоим именем «{ $name }»: пока игра идёт.
mydata-finished = • Оконченная игра ({ $where }) с твоим именем «{ $name }»: хранится сутки для «Сыграть ещё».
mydata-chat = • Статистика: { $where }, имя «{ $name }», игр: { $games }, в дураках: { $durak }, ничьих: { $draws }.
mydata-totals = • Итог по всем чатам: игр: { $games }, в дураках: { $durak }, ничьих: { $draws }.
mydata-versus = • Игры с ботами ({ $level }): игр: { $games }, в дураках: { $durak }, ничьих: { $draws }.
mydata-rating = • Рейтинг: { $points } (игр с рейтингом: { $games }) и в каких группах ты их сыграл, с твоим именем там.
mydata-rules = • Твои правила для игр с ботами здесь, в личке.
mydata-footer = Статистика и правила хранятся, пока ты их не удалишь; стол — пока идёт игра (неделю без ходов — и он пропадает). Удалить всё: /forget
forget-ask = Удалить всё, что я храню о тебе (список: /mydata)? Вернуть это будет нельзя.
forget-ask-playing = Столы, за которыми ты сейчас сидишь ({ $count }), доиграются как есть, с твоим именем: их итог сотрёт следующий /forget.
button-forget-yes = 🗑 Удалить
button-forget-no = Отмена
forget-done = 🗑 Готово: всё, что я хранил о тебе, удалено.
forget-cancelled = Ничего не удалено.
answer-forget-stale = Эта кнопка устарела, ничего не удалено. Напиши /forget ещё раз.
# What a finished game shows instead of the name of a player who used /forget.
player-forgotten = игрок

## A stopped game

stopped-table = 🛑 <b>Игра остановлена</b> ({ $name }).
stopped-hand = 🛑 Игра остановлена.

## The bot can no longer show a lobby or game in its group (private messages to its players)

gone-removed =
    🚪 Меня убрали из группы «{ $group }». { $lobby ->
        [yes] Стол, который там собирался, закрыт.
       *[no] Игра там окончена и не засчитана.
    }
gone-removed-untitled =
    🚪 Меня убрали из группы. { $lobby ->
        [yes] Стол, который там собирался, закрыт.
       *[no] Игра там окончена и не засчитана.
    }
gone-clash =
    🛑 Группа стала супергруппой, и там уже собирают новую игру. { $lobby ->
        [yes] Стол, который собирался раньше, закрыт.
       *[no] Прежняя игра окончена и не засчитана.
    }

## /help

help =
    🃏 <b>Подкидной дурак</b>
    Играем в группе, карты у каждого в личке с ботом; там же виден весь стол и последние ходы.

    /newgame — собрать стол (или /durak)
    /join — сесть за стол
    /leave — встать из-за стола
    /addbot — посадить за стол бота (/addbot easy, normal или hard); /removebot — убрать
    /play — в личке со мной: игра с ботами, один на один или против нескольких
    /startgame — раздать карты (тот, кто собрал стол, или админ)
    /stop — остановить игру (тот, кто собрал стол, или админ)
    /rules — правила этого чата (в личке — стола, за которым ты сидишь)
    /settings — настройки чата: колода, кто подкидывает, перевод… (меняют админы)
    /set — изменить одно правило: /set throw_in all; просто /set — все ключи
    /stats — статистика чата: кто реже в дураках, и твой рейтинг (в личке — твои)
    /top — рейтинг игроков группы (за каждую игру: кто раньше вышел — тот выше)
    /replay — последняя игра: запись, проверка колоды и повтор по ходам
    /help — эта справка

    Чтобы играть, один раз нажми «Старт» у бота в личке: туда придут твои карты с кнопками ходов. Кнопка «🃏 Мои карты» под столом в группе показывает твои карты во всплывающем окне — их видишь только ты.

## The command menu

command-newgame = Собрать стол для игры
command-join = Сесть за стол
command-leave = Встать из-за стола
command-addbot = Посадить за стол бота: /addbot easy|normal|hard
command-removebot = Убрать бота из-за стола
command-play = Сыграть с ботами здесь, в личке
command-startgame = Раздать карты
command-stop = Остановить игру
command-rules = Правила этого чата
command-top = Рейтинг игроков группы
command-replay = Последняя игра: запись и повтор
command-help = Как играть
command-start = Начать: сюда будут приходить карты
command-mydata = Что бот хранит обо мне
command-forget = Удалить всё, что бот хранит обо мне

## Ratings: /top in a group, a person's own in /stats

top-title = 🏆 <b>Рейтинг группы</b>
top-rule = Кто сыграл здесь { $min } и больше рейтинговых игр; 🤖 — боты для сравнения.
top-line = { $place }. { $name } — <b>{ $points }</b> ({ $games })
top-computer = 🤖 { $level } — { $points }
top-empty = Здесь пока никто не сыграл { $min } рейтинговых игр. Рейтинг считается за каждую оконченную игру: кто раньше вышел — тот выше, дурак ниже всех.
stats-rating-here = Твой рейтинг: <b>{ $points }</b>, { $place }-е место в группе из { $count }.
stats-rating-me = Рейтинг: <b>{ $points }</b>, { $place }-е место из { $count } ({ $games }).
