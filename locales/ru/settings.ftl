# /settings and /set: the chat's house rules (RULES.md section 2), changed by its admins.
# Ids: settings-* (the message and the replies), setting-<key> (a rule's name),
# setting-<key>-<value> (its values in words), btn-settings-*, set-*, command-settings,
# command-set. Replies double as pop-ups: plain text, at most 200 characters.

## The /settings message

settings-title = ⚙️ <b>Настройки этого чата</b>
settings-title-done = ✅ <b>Настройки этого чата сохранены</b>
settings-row = { $name }: <b>{ $value }</b>
settings-hint = Нажми на правило, чтобы его изменить. Новые правила действуют со следующей игры, а для стола, который сейчас собирается, — сразу.
settings-admins-only = Менять их могут только админы группы.
settings-pick = Выбери: <b>{ $name }</b>
btn-settings-row = { $name }: { $value }
btn-settings-chosen = ✅ { $value }
btn-settings-back = ↩️ Назад
btn-settings-done = ✅ Готово
btn-setting-deck-value =
    { $deck ->
        [24] 24 карты
        [52] 52 карты
       *[other] { $deck } карт
    }

## A rule's name, then its values in words

setting-deck = Колода
setting-deck-value =
    { $deck ->
        [24] 24 карты, от девятки
        [52] 52 карты, от двойки
       *[other] { $deck } карт, от шестёрки
    }
setting-max-players = Игроков за столом
setting-max-players-value = до { $count }
setting-throw-in = Подкидывают
setting-throw-in-neighbors = соседи
setting-throw-in-all = все
setting-throw-in-neighbors-first-rank = соседи; остальные — по первой карте
setting-first-bout-limit = Первый заход
setting-first-bout-limit-none = до 6 карт, как всегда
setting-first-bout-limit-first-bout = до 5 карт
setting-first-bout-limit-until-first-beaten = до 5 карт, пока не было отбоя
setting-no-trump-start = Ни у кого нет козыря
setting-no-trump-start-dealer-left = ходит сосед сдающего
setting-no-trump-start-random = первого выбирает жребий
setting-next-game-start = Следующую игру
setting-next-game-start-from-under-fool = ходят из-под дурака
setting-next-game-start-under-fool = ходят под дурака
setting-next-game-start-lowest-trump = начинает младший козырь
setting-transfer = Перевод
setting-transfer-on = да, переводной
setting-transfer-off = нет, подкидной
setting-transfer-first-bout = Перевод в первом заходе
setting-transfer-first-bout-on = можно
setting-transfer-first-bout-off = нельзя
setting-transfer-first-bout-on-about = в первом заходе игры тоже переводят (если перевод включён)
setting-transfer-first-bout-off-about = в первом заходе игры переводить нельзя: только отбиться или взять
setting-teams = Команды
setting-teams-off = нет, каждый за себя
setting-teams-pairs = парами
setting-teams-triples = тройками
setting-teams-off-about = каждый играет сам за себя
setting-teams-pairs-about = 4 или 6 игроков, партнёры сидят через одного и друг под друга не ходят; проигрывает вся команда дурака
setting-teams-triples-about = 6 игроков, две команды по трое, партнёры через одного; проигрывает вся команда дурака
setting-trump = Козырь
setting-trump-turned = открытая карта
setting-trump-dealer = называет сдающий
setting-trump-japanese = японский: бубны
setting-trump-northern = северный: меняется
setting-trump-turned-about = козырь — масть карты, открытой под колодой
setting-trump-dealer-about = сдающий называет масть до раздачи; карта не открывается
setting-trump-japanese-about = бубны всегда козыри, карта не открывается; пику бьёт только старшая пика
setting-trump-northern-about = под открытой картой лежит закрытая; кто её возьмёт, показывает, и козырем становится её масть
setting-top-card = Старшая карта
setting-top-card-off = как обычно
setting-top-card-queen-of-spades = дама ♠ бьёт всё
setting-top-card-queen-of-hearts = дама ♥ — старший козырь
setting-top-card-off-about = старше всех туз козырей
setting-top-card-queen-of-spades-about = дама пик (турáкас) бьёт любую карту, её ничем не побить — только взять
setting-top-card-queen-of-hearts-about = дама червей — козырь старше всех; когда ею отбились, в этот заход больше не подкидывают
setting-trump-six-exchange = Обмен козырной шестёрки
setting-trump-six-exchange-on = да
setting-trump-six-exchange-off = нет
setting-trump-six-exchange-on-about = у кого младший козырь (шестёрка, в 24 картах девятка, в 52 двойка), может, пока в колоде хотя бы 2 карты, забрать им открытый козырь
setting-trump-six-exchange-off-about = открытый козырь достаётся тому, кто возьмёт последнюю карту
setting-pogony = Погоны
setting-pogony-off = нет
setting-pogony-title = за младшие в конце
setting-pogony-strict = строгие
setting-pogony-off-about = дурак — просто дурак
setting-pogony-title-about = если последний заход — две и больше младшие карты (шестёрки) разом, дурак «с погонами»; считается в /stats
setting-pogony-strict-about = ранг погон — в 1-й игре младший в колоде, во 2-й следующий и так до тузов; последние карты этого ранга ходят разом, их не побить, только взять
setting-blind = Вслепую
setting-blind-off = нет
setting-blind-reversed = оборотный дурак
setting-blind-chinese = китайский дурак
setting-blind-doubt = неверный дурень
setting-blind-off-about = каждый видит свои карты, как обычно
setting-blind-reversed-about = каждый видит чужие карты, а свои — только рубашками 🂠1 🂠2 … и ходит ими по номеру, по одной карте; кто ошибся (подкинул не то или не побил), забирает весь стол
setting-blind-chinese-about = никто не видит ни одной карты: ходят одной картой рубашкой вверх, отвечают одной наугад; побила — обе в отбой, нет — отбивающийся забирает обе
setting-blind-doubt-about = отбиваются картами рубашкой вверх, можно блефовать; ходивший говорит «Верю» (стол в отбой не открывая) или «Не верю» (карты открывают, и кто неправ, забирает весь стол)
setting-turn-timeout = Время на ход
setting-turn-timeout-value = { $seconds } с
setting-turn-timeout-off = без таймера
setting-series = Серия
setting-series-value =
    { $count ->
        [1] одна игра
        [one] { $count } игра
        [few] { $count } игры
       *[other] { $count } игр
    }
setting-language = Язык
setting-ai-level = Уровень бота-игрока
setting-ai-level-easy = лёгкий
setting-ai-level-normal = средний
setting-ai-level-hard = сильный
setting-show-hands-after = Карты после игры
setting-show-hands-after-on = открыть
setting-show-hands-after-off = не открывать
setting-show-hands-after-on-about = после игры все видят все руки: в повторе и в записи игры, как за кухонным столом
setting-show-hands-after-off-about = после игры каждый видит только свои карты; запись игры и проверку колоды не показывают

## A rule's button says its name and value, «Перевод: да, переводной», in at most 24
## characters (a phone cuts longer labels): shorter names and values where the ones above
## do not fit

btn-setting-first-bout-limit = 1-й заход
btn-setting-no-trump-start = Нет козыря
btn-setting-next-game-start = Следующая
btn-setting-turn-timeout = На ход
btn-setting-ai-level = Уровень бота
btn-setting-show-hands-after = Карты после
btn-setting-show-hands-after-on = открыть
btn-setting-show-hands-after-off = скрыть
btn-setting-throw-in-neighbors-first-rank = соседи+1-я
btn-setting-first-bout-limit-none = до 6 карт
btn-setting-first-bout-limit-until-first-beaten = до 5 до отбоя
btn-setting-no-trump-start-dealer-left = за сдающим
btn-setting-no-trump-start-random = по жребию
btn-setting-next-game-start-from-under-fool = из-под дурака
btn-setting-next-game-start-under-fool = под дурака
btn-setting-next-game-start-lowest-trump = мл. козырь
btn-setting-transfer-on = да, переводной
btn-setting-transfer-off = нет, подкидной
btn-setting-transfer-first-bout = Перевод в 1-м
btn-setting-teams-off = нет
btn-setting-trump-turned = открытая
btn-setting-trump-dealer = сдающий
btn-setting-trump-japanese = японский
btn-setting-trump-northern = северный
btn-setting-top-card = Старшая
btn-setting-top-card-queen-of-spades = дама ♠
btn-setting-top-card-queen-of-hearts = дама ♥
btn-setting-trump-six-exchange = Обмен 6
btn-setting-pogony-title = младшие
btn-setting-blind-reversed = оборотный
btn-setting-blind-chinese = китайский
btn-setting-blind-doubt = неверный

## Replies to /set and pop-ups after a press

settings-changed = ✅ { $name }: { $value }.
settings-changed-now = ✅ { $name }: { $value }. Уже действует.
settings-changed-after-this-game = ✅ { $name }: { $value }. Идёт игра — изменится со следующей.
settings-same = { $name } — и так { $value }.
settings-too-many-seated =
    За столом уже { $seated ->
        [one] { $seated } игрок
        [few] { $seated } игрока
       *[other] { $seated } игроков
    }, а так можно не больше { $limit }. Ничего не изменилось: пусть кто-нибудь выйдет, или выбери больше.
settings-about = { $value } — { $about }
settings-impossible-teams-need-seats = { $name }: так нельзя — для команд нужно хотя бы 4 игрока за столом (парами 4 или 6, тройками 6). Сначала увеличь «Игроков за столом» или колоду. Ничего не изменилось.
settings-impossible-exchange-needs-turned-trump = { $name }: так нельзя — обмен шестёрки бывает, только когда козырь — открытая карта. Сначала выбери «Козырь: открытая карта» или выключи обмен. Ничего не изменилось.
settings-impossible-blind-excludes = { $name }: так нельзя — вслепую играют без перевода, команд, обмена козырной шестёрки и погон. Выключи их или выбери «Вслепую: нет». Ничего не изменилось.
settings-impossible-bad-value = { $name }: так нельзя с остальными правилами. Ничего не изменилось.
settings-not-admin = Менять настройки могут только админы группы.
settings-unknown-key = Нет настройки «{ $key }». Есть: { $keys }.
settings-private-no-timer = В игре с ботами нет таймера хода: тебя никто не ждёт, думай сколько хочешь.
settings-bad-value = У { $key } нет значения «{ $value }». Можно: { $values }.
settings-usage = Так: /set ключ значение, например /set throw_in all. Все ключи и значения: /set

## /set without arguments

set-list-title = ⚙️ <b>Настройки этого чата</b>. Изменить: <code>/set ключ значение</code>
set-list-row = <code>{ $key } { $value }</code> — { $words }. Можно: { $values }
set-values-range = от { $min } до { $max }
set-values-turn-timeout = 0 (без таймера) или от { $min } до { $max } секунд

## The command menu

command-settings = Настройки чата (меняют админы)
command-set = Изменить правило: /set ключ значение
