# The terminal game (durak-play): plain text, no HTML. Ids: term-*.
# Cards, the table, events and counts come from table.ftl, the same words as in the bot.

term-title = Гравців за столом: { $players }. Комп'ютер грає на рівні «{ $level }».
term-level-easy = легкий
term-level-normal = середній
term-level-hard = сильний
term-hint = Введи номер ходу й натисни Enter; q — вийти.
term-you = Ти
term-your-turn = Твій хід:
term-prompt = Номер ходу:
term-action-attack = ходити: { $cards }
term-action-throw = підкинути: { $cards }
term-action-cover = побити { $on } картою { $card }
term-action-take = забрати карти
term-action-pass = пас, більше не підкидати
term-action-transfer = перевести картою { $card }
term-action-exchange = обміняти { $card } на відкритий козир { $took }
term-action-attack-slot = ходити картою з комірки { $slot } (наосліп)
term-action-throw-slot = підкинути карту з комірки { $slot } (наосліп)
term-action-cover-slot = побити { $on } картою з комірки { $slot } (наосліп)
term-action-answer-slot = відбиватися картою з комірки { $slot } (наосліп)
term-action-believe = «вірю»: карти у відбій, не відкриваючи
term-action-doubt = «не вірю»: відкрити покриття
term-event-exchanged = { $name } міняє { $card } на відкритий козир { $took }
term-event-trump-changed = { $name } бере нижню карту { $card }: тепер козир — її масть
term-event-epaulettes = 🎖 { $name } — дурень з погонами!
term-error-not-a-number = Потрібен номер ходу, наприклад 1. Або q, щоб вийти.
term-error-out-of-range = Такого ходу немає: введи число від 1 до { $count }.
term-you-are-out = Твої карти скінчилися, догравають інші.
term-bye = Гру перервано. До зустрічі!

## You, at the keyboard: the log's events in the second person (the same words as table.ftl).
term-you-attacked = Ти ходиш: { $cards }
term-you-threw-in = Ти підкидаєш: { $cards }
term-you-covered = Ти б'єш { $on } картою { $card }
term-you-transferred = Ти переводиш картою { $card }, тепер відбивається { $target }
term-transferred-to-you = { $name } переводить картою { $card }, тепер відбиваєшся ти
term-you-passed = Ти: пас
term-you-declared-take = Ти: «Беру!»
term-you-took =
    Ти береш { $count ->
        [one] { $count } карту
        [few] { $count } карти
        [many] { $count } карт
       *[other] { $count } карти
    }
term-you-beaten-off =
    Ти відбиваєшся: бито, у відбій { $count ->
        [one] іде { $count } карта
        [few] ідуть { $count } карти
        [many] ідуть { $count } карт
       *[other] ідуть { $count } карти
    }
term-you-drew =
    Ти добираєш { $count ->
        [one] { $count } карту
        [few] { $count } карти
        [many] { $count } карт
       *[other] { $count } карти
    }
term-you-player-out = Ти виходиш із гри: { $place }
term-bout-you-attack = Новий захід: ходиш ти, відбивається { $defender }
term-bout-you-defend = Новий захід: ходить { $attacker }, відбиваєшся ти
term-you-durak = 🤡 Ти залишаєшся в дурнях!
term-you-exchanged = Ти міняєш { $card } на відкритий козир { $took }
term-you-trump-changed = Ти береш нижню карту { $card }: тепер козир — її масть
term-you-epaulettes = 🎖 Ти залишаєшся дурнем з погонами!
term-you-resigned = Ти встаєш з-за столу
term-you-lowest-trump = Перший хід — твій: у тебе найменший козир { $card }
term-you-misplayed-throw-in = Ти підкидаєш { $card }, а такого номіналу на столі немає
term-you-misplayed-cover = Ти криєш { $on } картою { $card }, а вона не б'є
term-you-laid-face-down-attack = Ти ходиш картою сорочкою догори
term-you-laid-face-down-cover = Ти кладеш карту сорочкою догори на { $on }
term-you-answered = Ти відбиваєшся: { $card } на { $attack }
term-you-believed = Ти: «Вірю» — карти йдуть у відбій невідкритими
term-you-doubted =
    Ти: «Не вірю» — { $count ->
        [one] відкрита
       *[other] відкриті
    } { $covers }: { $beaten ->
        [yes] усе покрито правильно
       *[no] покрито неправильно
    }

## Your part in the bout on your own seat line (role-* of table.ftl, second person).
term-you-role-attacker = ходиш
term-you-role-defender = відбиваєшся
term-you-role-taking = береш
term-you-role-thrower = підкидаєш

## The end of a game: the summary (table-* and series-* lines), the seed, what next.
term-games-played = Зіграно ігор: { $count }
term-seed = Сід: { $seed }. Та сама перша роздача: { $command }
term-after-game = Що далі?
term-prompt-next = Твій вибір:
term-again = ще раз
term-save = зберегти запис
term-leave = вийти
term-saved = Запис збережено: { $path }. Відтворити його: python -m engine.replay { $path }
term-save-failed = Не вдалося зберегти запис: { $error }
term-goodbye = Дякуємо за гру. До зустрічі!

## Several cards of one rank: first the rank, then how many, then which (if it matters).
term-choice-several-attack = ходити кількома з { $cards }…
term-choice-several-throw = підкинути кілька з { $cards }…
term-choice-count = { $cards }…
term-how-many = Скільки карт?
term-which = Які?
term-back = назад

## The blind family (RULES.md section 14): each game's name and what it is, in one line
## (the game's start and durak-play --list-rules), and what the table shows of it.
term-game-reversed = Оборотний дурень
term-game-chinese = Китайський дурень
term-game-doubt = Невірний дурень
term-about-reversed = Бачиш карти суперників, а свої — лише сорочками: ходиш наосліп номером комірки, а хто зіграв не ту карту, забирає весь стіл.
term-about-chinese = Ніхто не бачить ні своїх карт, ні чужих: ходять однією картою сорочкою догори, відповідають однією картою наосліп; не побив — забираєш обидві.
term-about-doubt = Криєш сорочкою догори будь-якою картою, хай і не б'є: на «вірю» все йде у відбій, на «не вірю» карти відкривають, і бере той, хто збрехав або марно не повірив.
term-row = { $name }: { $cards }
term-misplays = Промахів у цій грі: { $count }
term-face-down-yours = { $back } — твоя карта сорочкою догори: її бачиш лише ти
term-choice-cover = побити { $on }…
term-which-cover = Чим побити { $on }?
