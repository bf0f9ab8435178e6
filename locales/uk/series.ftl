# Series, statistics and players who leave: the table's series lines, the standings, /stats,
# and why a player who left is the durak. Ids: series-*, stats-*, btn-next-game,
# command-stats. Texts are Telegram HTML: only <b> and <i>; never a bare <, > or &.

## Counts with plural forms

series-times =
    { $count ->
        [one] { $count } раз
        [few] { $count } рази
        [many] { $count } разів
       *[other] { $count } рази
    }

## The series on the table

series-game = 🎯 Серія: гра <b>{ $number }</b> з { $length }
series-tally = Скільки разів у дурнях: { $tally }
series-tally-entry = { $name } — { $count }
series-draws = Нічиїх: { $count } (нічия нікого не робить дурнем)
btn-next-game = ▶️ Наступна гра { $number }/{ $length }
series-over = 🏁 <b>Серію закінчено!</b>
series-over-early = 🏁 <b>Серію закінчено достроково</b>: за столом менше двох гравців.
series-winner =
    🏆 { $count ->
        [one] Переможець серії
       *[other] Переможці серії
    }: <b>{ $names }</b>
series-standings = <b>Підсумок серії</b> (менше разів у дурнях — вище):
series-standing = { $place }. { $name } — { $times }

## /stats

command-stats = Статистика: хто рідше в дурнях
stats-title = 📊 <b>Хто найрідше в дурнях</b>
stats-rule = За часткою ігор у дурнях (менше — краще); у таблиці — хто зіграв від { $min } ігор.
stats-line = { $place }. { $name } — у дурнях { $rate }% · { $games } · 🥇 { $wins }
stats-line-epaulettes = · 🤡 з погонами: { $count }
stats-unranked =
    { $count ->
        [one] Ще { $count } гравець зіграв
        [few] Ще { $count } гравці зіграли
        [many] Ще { $count } гравців зіграли
       *[other] Ще { $count } гравця зіграли
    } менше { $min } ігор.
stats-empty = У цьому чаті ще не дограли жодної гри. Зібрати стіл: /newgame
stats-none-ranked =
    📊 Поки ніхто не зіграв { $min ->
        [one] { $min } гри
       *[other] { $min } ігор
    }, щоб потрапити до таблиці: { $count ->
        [one] { $count } гравець зіграв
        [few] { $count } гравці зіграли
       *[many] { $count } гравців зіграли
    } менше.
stats-me-title = 📊 <b>Твоя статистика</b> (в усіх чатах)
stats-me-games = Зіграно: { $games }
stats-me-durak = У дурнях: { $times } ({ $rate }%)
stats-me-epaulettes = 🤡 Дурень з погонами: { $times }
stats-me-draws = Нічиїх: { $count }
stats-me-wins = Перше місце: { $times }
stats-me-places = За місцями: { $places }
stats-me-place = { $place } — { $times }
stats-me-empty = У тебе ще немає жодної дограної гри. Збери стіл у групі: /newgame
stats-me-only-computers = З людьми в тебе ще немає жодної дограної гри, лише з ботами. Збери стіл у групі: /newgame
stats-vs-title = 🤖 <b>Проти ботів</b> (рахується окремо):
stats-vs-line = { $level }: { $games }, у дурнях { $times }{ $draws ->
        [0] {""}
       *[other] , нічиїх { $draws }
    }
