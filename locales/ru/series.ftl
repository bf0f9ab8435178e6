# Series, statistics and players who leave: the table's series lines, the standings, /stats,
# and why a player who left is the durak. Ids: series-*, stats-*, btn-next-game,
# command-stats. Texts are Telegram HTML: only <b> and <i>; never a bare <, > or &.

## Counts with plural forms

series-times =
    { $count ->
        [one] { $count } раз
        [few] { $count } раза
        [many] { $count } раз
       *[other] { $count } раза
    }

## The series on the table

series-game = 🎯 Серия: игра <b>{ $number }</b> из { $length }
series-tally = Сколько раз в дураках: { $tally }
series-tally-entry = { $name } — { $count }
series-draws = Ничьих: { $count } (ничья никого не делает дураком)
btn-next-game = ▶️ Следующая игра { $number }/{ $length }
series-over = 🏁 <b>Серия окончена!</b>
series-over-early = 🏁 <b>Серия окончена досрочно</b>: за столом меньше двух игроков.
series-winner =
    🏆 { $count ->
        [one] Победитель серии
       *[other] Победители серии
    }: <b>{ $names }</b>
series-standings = <b>Итог серии</b> (меньше раз в дураках — выше):
series-standing = { $place }. { $name } — { $times }

## /stats

command-stats = Статистика: кто реже в дураках
stats-title = 📊 <b>Кто реже всех в дураках</b>
stats-rule = По доле игр в дураках (меньше — лучше); в таблице — кто сыграл от { $min } игр.
stats-line = { $place }. { $name } — в дураках { $rate }% · { $games } · 🥇 { $wins }
stats-line-epaulettes = · 🤡 с погонами: { $count }
stats-unranked =
    { $count ->
        [one] Ещё { $count } игрок сыграл
        [few] Ещё { $count } игрока сыграли
        [many] Ещё { $count } игроков сыграли
       *[other] Ещё { $count } игрока сыграли
    } меньше { $min } игр.
stats-empty = В этом чате ещё не доиграли ни одной игры. Собрать стол: /newgame
stats-none-ranked =
    📊 Пока никто не сыграл { $min ->
        [one] { $min } игры
       *[other] { $min } игр
    }, чтобы попасть в таблицу: { $count ->
        [one] { $count } игрок сыграл
        [few] { $count } игрока сыграли
       *[many] { $count } игроков сыграли
    } меньше.
stats-me-title = 📊 <b>Твоя статистика</b> (во всех чатах)
stats-me-games = Сыграно: { $games }
stats-me-durak = В дураках: { $times } ({ $rate }%)
stats-me-epaulettes = 🤡 Дурак с погонами: { $times }
stats-me-draws = Ничьих: { $count }
stats-me-wins = Первое место: { $times }
stats-me-places = По местам: { $places }
stats-me-place = { $place } — { $times }
stats-me-empty = У тебя ещё нет ни одной доигранной игры. Собери стол в группе: /newgame
stats-me-only-computers = С людьми у тебя ещё нет ни одной доигранной игры, только с ботами. Собери стол в группе: /newgame
stats-vs-title = 🤖 <b>Против ботов</b> (считается отдельно):
stats-vs-line = { $level }: { $games }, в дураках { $times }{ $draws ->
        [0] {""}
       *[other] , ничьих { $draws }
    }
