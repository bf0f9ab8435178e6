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

## A rule's button says its name and value, «Перевод: да, переводной», in at most 24
## characters (a phone cuts longer labels): shorter names and values where the ones above
## do not fit

btn-setting-first-bout-limit = 1-й заход
btn-setting-no-trump-start = Нет козыря
btn-setting-next-game-start = Следующая
btn-setting-turn-timeout = На ход
btn-setting-ai-level = Уровень бота
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
