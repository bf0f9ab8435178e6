# The terminal game (durak-play): plain text, no HTML. Ids: term-*.
# Cards, the table, events and counts come from table.ftl, the same words as in the bot.

term-title = Гравців за столом: { $players }. Комп'ютер грає на рівні «{ $level }».
term-level-easy = легкий
term-level-normal = середній
term-level-hard = сильний
term-hint = Введи номер ходу й натисни Enter; q — вийти.
term-you = Гравець
term-computer = Комп'ютер { $number }
term-your-turn = Твій хід:
term-prompt = Номер ходу:
term-action-attack = ходити: { $cards }
term-action-throw = підкинути: { $cards }
term-action-cover = побити { $on } картою { $card }
term-action-take = забрати карти
term-action-pass = пас, більше не підкидати
term-action-transfer = перекинути картою { $card }
term-error-not-a-number = Потрібен номер ходу, наприклад 1. Або q, щоб вийти.
term-error-out-of-range = Такого ходу немає: введи число від 1 до { $count }.
term-you-are-out = Твої карти скінчилися, догравають інші.
term-bye = Гру перервано. До зустрічі!
