# After the game: the deck's check, the review («Разбор») and the replay.

table-deck = 🔐 Колода: #{ $commitment }
btn-verify = 🔐 Проверить колоду
btn-review = 📈 Разбор
verify-caption =
    🔐 Запись игры { $game }: колода, раздача и все ходы.
    { $verdict }
    Проверить самому: python -m engine.verify { $file }
verify-ok = ✅ Колода честная: сид даёт обещанную метку #{ $commitment } и ровно эту раздачу.
verify-failed = ❌ { $line }
verify-hidden = За этим столом карты после игры не открывают (настройка show_hands_after): колоду проверить нельзя.
after-no-record = Запись этой игры не сохранилась: проверить и разобрать её нельзя.
replay-text = ▶️ Повтор игры { $game }: все ходы по шагам.
replay-hands-hidden = За этим столом карты после игры не открывают: в повторе каждый видит только свои.
replay-no-game = Здесь ещё нет законченных игр для повтора.
review-not-yours = Разбор — для тех, кто играл в этой игре.
review-blind = Слепые игры (оборотный, китайский, неверный дурень) движок не разбирает: там ход — это догадка.
review-start-bot = Чтобы получить разбор, откройте личный чат с ботом и нажмите «Старт».
review-queued = { $ahead ->
    [0] 📈 Разбираю игру — пришлю в личные сообщения.
    [one] 📈 Разбор в очереди: передо мной ещё { $ahead } разбор. Пришлю в личные сообщения.
    [few] 📈 Разбор в очереди: передо мной ещё { $ahead } разбора. Пришлю в личные сообщения.
   *[other] 📈 Разбор в очереди: передо мной ещё { $ahead } разборов. Пришлю в личные сообщения.
}
review-waiting = 📈 Компьютерные игроки сейчас заняты: разбор игры { $game } подождёт, пока они походят.
review-title = 📈 Разбор игры { $game } ({ $decisions ->
    [one] { $decisions } решение
    [few] { $decisions } решения
   *[other] { $decisions } решений
}), где ход стоил тебе больше всего:
review-clean = 📈 Разбор игры { $game }: ни один из { $decisions } ходов не стоил тебе заметно. Так держать!
review-moment = Ход { $move }: твой выбор — { $played }. Лучше было { $preferred }: { $before }% → { $after }%
review-footer = Проценты — шанс не остаться дураком, как его видит движок по тому, что было видно с твоего места в тот момент.
review-do-attack = зайти с { $cards }
review-do-throw = подкинуть { $cards }
review-do-defend = покрыть { $on } картой { $card }
review-do-take = взять
review-do-pass = сказать «пас»
review-do-transfer = перевести картой { $card }
