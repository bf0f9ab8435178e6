# /settings and /set: the chat's house rules (RULES.md section 2), changed by its admins.
# Ids: settings-* (the message and the replies), setting-<key> (a rule's name),
# setting-<key>-<value> (its values in words), btn-settings-*, set-*, command-settings,
# command-set. Replies double as pop-ups: plain text, at most 200 characters.

## The /settings message

settings-title = ⚙️ <b>Налаштування цього чату</b>
settings-title-done = ✅ <b>Налаштування цього чату збережено</b>
settings-row = { $name }: <b>{ $value }</b>
settings-hint = Натисни на правило, щоб його змінити. Нові правила діють з наступної гри, а для столу, який зараз збирається, — одразу.
settings-admins-only = Змінювати їх можуть лише адміни групи.
settings-pick = Обери: <b>{ $name }</b>
btn-settings-row = { $name }: { $value }
btn-settings-chosen = ✅ { $value }
btn-settings-back = ↩️ Назад
btn-settings-done = ✅ Готово
btn-setting-deck-value =
    { $deck ->
        [24] 24 карти
        [52] 52 карти
       *[other] { $deck } карт
    }

## A rule's name, then its values in words

setting-deck = Колода
setting-deck-value =
    { $deck ->
        [24] 24 карти, від дев'ятки
        [52] 52 карти, від двійки
       *[other] { $deck } карт, від шістки
    }
setting-max-players = Гравців за столом
setting-max-players-value = до { $count }
setting-throw-in = Підкидають
setting-throw-in-neighbors = сусіди
setting-throw-in-all = усі
setting-throw-in-neighbors-first-rank = сусіди; решта — за першою картою
setting-first-bout-limit = Перший захід
setting-first-bout-limit-none = до 6 карт, як завжди
setting-first-bout-limit-first-bout = до 5 карт
setting-first-bout-limit-until-first-beaten = до 5 карт, поки не було відбою
setting-no-trump-start = Ні в кого немає козиря
setting-no-trump-start-dealer-left = ходить сусід того, хто роздавав
setting-no-trump-start-random = першого обирає жереб
setting-next-game-start = Наступну гру
setting-next-game-start-from-under-fool = ходять з-під дурня
setting-next-game-start-under-fool = ходять під дурня
setting-next-game-start-lowest-trump = починає найменший козир
setting-transfer = Переведення
setting-transfer-on = так, перевідний
setting-transfer-off = ні, підкидний
setting-transfer-first-bout = Переведення в першому заході
setting-transfer-first-bout-on = можна
setting-transfer-first-bout-off = не можна
setting-transfer-first-bout-on-about = у першому заході гри теж переводять (якщо переведення увімкнене)
setting-transfer-first-bout-off-about = у першому заході гри переводити не можна: тільки відбитися або взяти
setting-teams = Команди
setting-teams-off = ні, кожен за себе
setting-teams-pairs = парами
setting-teams-triples = трійками
setting-teams-off-about = кожен грає сам за себе
setting-teams-pairs-about = 4 або 6 гравців, партнери сидять через одного й один під одного не ходять; програє вся команда дурня
setting-teams-triples-about = 6 гравців, дві команди по троє, партнери через одного; програє вся команда дурня
setting-trump = Козир
setting-trump-turned = відкрита карта
setting-trump-dealer = називає той, хто роздає
setting-trump-japanese = японський: бубна
setting-trump-northern = північний: змінюється
setting-trump-turned-about = козир — масть карти, відкритої під колодою
setting-trump-dealer-about = той, хто роздає, називає масть до роздачі; карта не відкривається
setting-trump-japanese-about = бубна завжди козир, карта не відкривається; піку б'є тільки старша піка
setting-trump-northern-about = під відкритою картою лежить закрита; хто її візьме, показує, і козирем стає її масть
setting-top-card = Старша карта
setting-top-card-off = як завжди
setting-top-card-queen-of-spades = дама ♠ б'є все
setting-top-card-queen-of-hearts = дама ♥ — старший козир
setting-top-card-off-about = найстарший — туз козирів
setting-top-card-queen-of-spades-about = дама пік (турáкас) б'є будь-яку карту, її нічим не побити — тільки взяти
setting-top-card-queen-of-hearts-about = дама чирв — козир, старший за всі; коли нею відбилися, у цей захід більше не підкидають
setting-trump-six-exchange = Обмін козирної шістки
setting-trump-six-exchange-on = так
setting-trump-six-exchange-off = ні
setting-trump-six-exchange-on-about = у кого молодший козир (шістка, у 24 картах дев'ятка, у 52 двійка), може, поки в колоді хоча б 2 карти, забрати ним відкритий козир
setting-trump-six-exchange-off-about = відкритий козир дістається тому, хто візьме останню карту
setting-pogony = Погони
setting-pogony-off = ні
setting-pogony-title = за молодші в кінці
setting-pogony-strict = суворі
setting-pogony-off-about = дурень — просто дурень
setting-pogony-title-about = якщо останній захід — дві й більше молодші карти (шістки) разом, дурень «з погонами»; рахується в /stats
setting-pogony-strict-about = ранг погонів — у 1-й грі молодший у колоді, у 2-й наступний і так до тузів; останні карти цього рангу ходять разом, їх не побити, тільки взяти
setting-blind = Наосліп
setting-blind-off = ні
setting-blind-reversed = оборотний дурень
setting-blind-chinese = китайський дурень
setting-blind-doubt = невірний дурень
setting-blind-off-about = кожен бачить свої карти, як завжди
setting-blind-reversed-about = кожен бачить чужі карти, а свої — тільки сорочками 🂠1 🂠2 … і ходить ними за номером, по одній карті; хто помилився (підкинув не те чи не побив), забирає весь стіл
setting-blind-chinese-about = ніхто не бачить жодної карти: ходять однією картою сорочкою догори, відповідають однією навмання; побила — обидві у відбій, ні — той, хто відбивається, забирає обидві
setting-blind-doubt-about = відбиваються картами сорочкою догори, можна блефувати; той, хто ходив, каже «Вірю» (стіл у відбій не відкриваючи) або «Не вірю» (карти відкривають, і хто неправий, забирає весь стіл)
setting-turn-timeout = Час на хід
setting-turn-timeout-value = { $seconds } с
setting-turn-timeout-off = без таймера
setting-series = Серія
setting-series-value =
    { $count ->
        [1] одна гра
        [one] { $count } гра
        [few] { $count } гри
       *[other] { $count } ігор
    }
setting-language = Мова
setting-ai-level = Рівень бота-гравця
setting-ai-level-easy = легкий
setting-ai-level-normal = середній
setting-ai-level-hard = сильний
setting-show-hands-after = Карти після гри
setting-show-hands-after-on = відкрити
setting-show-hands-after-off = не відкривати
setting-show-hands-after-on-about = після гри всі бачать усі руки: у повторі й у записі гри, як за кухонним столом
setting-show-hands-after-off-about = після гри кожен бачить лише свої карти; запис гри й перевірку колоди не показують

## A rule's button says its name and value, «Переведення: так», in at most 24 characters
## (a phone cuts longer labels): shorter names and values where the ones above do not fit

btn-setting-first-bout-limit = 1-й захід
btn-setting-no-trump-start = Нема козиря
btn-setting-next-game-start = Наступна
btn-setting-turn-timeout = Час на хід
btn-setting-ai-level = Рівень бота
btn-setting-show-hands-after = Карти після
btn-setting-show-hands-after-on = відкрити
btn-setting-show-hands-after-off = сховати
btn-setting-throw-in-neighbors-first-rank = сусіди+1-ша
btn-setting-first-bout-limit-none = до 6 карт
btn-setting-first-bout-limit-until-first-beaten = 5 до відбою
btn-setting-no-trump-start-dealer-left = за здавачем
btn-setting-no-trump-start-random = за жеребом
btn-setting-next-game-start-from-under-fool = з-під дурня
btn-setting-next-game-start-under-fool = під дурня
btn-setting-next-game-start-lowest-trump = найм. козир
btn-setting-transfer-on = так
btn-setting-transfer-off = ні
btn-setting-transfer-first-bout = Перевід у 1-му
btn-setting-teams-off = ні
btn-setting-trump-turned = відкрита
btn-setting-trump-dealer = хто роздає
btn-setting-trump-japanese = японський
btn-setting-trump-northern = північний
btn-setting-top-card = Старша
btn-setting-top-card-queen-of-spades = дама ♠
btn-setting-top-card-queen-of-hearts = дама ♥
btn-setting-trump-six-exchange = Обмін 6
btn-setting-pogony-title = молодші
btn-setting-blind-reversed = оборотний
btn-setting-blind-chinese = китайський
btn-setting-blind-doubt = невірний

## Replies to /set and pop-ups after a press

settings-changed = ✅ { $name }: { $value }.
settings-changed-now = ✅ { $name }: { $value }. Уже діє.
settings-changed-after-this-game = ✅ { $name }: { $value }. Іде гра — зміниться з наступної.
settings-same = { $name } — і так { $value }.
settings-too-many-seated =
    За столом уже { $seated ->
        [one] { $seated } гравець
        [few] { $seated } гравці
       *[other] { $seated } гравців
    }, а так можна не більше { $limit }. Нічого не змінилося: хай хтось вийде, або обери більше.
settings-about = { $value } — { $about }
settings-impossible-teams-need-seats = { $name }: так не можна — для команд потрібно хоча б 4 гравці за столом (парами 4 або 6, трійками 6). Спершу збільш «Гравців за столом» або колоду. Нічого не змінилося.
settings-impossible-exchange-needs-turned-trump = { $name }: так не можна — обмін шістки буває, тільки коли козир — відкрита карта. Спершу вибери «Козир: відкрита карта» або вимкни обмін. Нічого не змінилося.
settings-impossible-blind-excludes = { $name }: так не можна — наосліп грають без переведення, команд, обміну козирної шістки й погонів. Вимкни їх або вибери «Наосліп: ні». Нічого не змінилося.
settings-impossible-bad-value = { $name }: так не можна з іншими правилами. Нічого не змінилося.
settings-not-admin = Змінювати налаштування можуть лише адміни групи.
settings-unknown-key = Немає налаштування «{ $key }». Є: { $keys }.
settings-private-no-timer = У грі з ботами немає таймера ходу: тебе ніхто не чекає, думай скільки хочеш.
settings-bad-value = У { $key } немає значення «{ $value }». Можна: { $values }.
settings-usage = Так: /set ключ значення, наприклад /set throw_in all. Усі ключі та значення: /set

## /set without arguments

set-list-title = ⚙️ <b>Налаштування цього чату</b>. Змінити: <code>/set ключ значення</code>
set-list-row = <code>{ $key } { $value }</code> — { $words }. Можна: { $values }
set-values-range = від { $min } до { $max }
set-values-turn-timeout = 0 (без таймера) або від { $min } до { $max } секунд

## The command menu

command-settings = Налаштування чату (змінюють адміни)
command-set = Змінити правило: /set ключ значення
