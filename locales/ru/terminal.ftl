# The terminal game (durak-play): plain text, no HTML. Ids: term-*.
# Cards, the table, events and counts come from table.ftl, the same words as in the bot.

term-title = Игроков за столом: { $players }. Компьютер играет на уровне «{ $level }».
term-level-easy = лёгкий
term-level-normal = средний
term-level-hard = сильный
term-hint = Введи номер хода и нажми Enter; q — выйти.
term-you = Игрок
term-computer = Компьютер { $number }
term-your-turn = Твой ход:
term-prompt = Номер хода:
term-action-attack = ходить: { $cards }
term-action-throw = подкинуть: { $cards }
term-action-cover = покрыть { $on } картой { $card }
term-action-take = взять карты
term-action-pass = пас, больше не подкидывать
term-action-transfer = перевести картой { $card }
term-error-not-a-number = Нужен номер хода, например 1. Или q, чтобы выйти.
term-error-out-of-range = Такого хода нет: введи число от 1 до { $count }.
term-you-are-out = Твои карты кончились, доигрывают остальные.
term-bye = Игра прервана. До встречи!
