# After the game: the deck's check, the review («Розбір») and the replay.

table-deck = 🔐 Колода: #{ $commitment }
btn-verify = 🔐 Перевірити колоду
btn-review = 📈 Розбір
verify-caption =
    🔐 Запис гри { $game }: колода, роздача й усі ходи.
    { $verdict }
    Перевірити самому: python -m engine.verify { $file }
verify-ok = ✅ Колода чесна: сід дає обіцяну мітку #{ $commitment } і саме цю роздачу.
verify-failed = ❌ { $line }
verify-hidden = За цим столом карти після гри не відкривають (налаштування show_hands_after): колоду перевірити не можна.
after-no-record = Запис цієї гри не зберігся: перевірити й розібрати її не можна.
replay-text = ▶️ Повтор гри { $game }: усі ходи по кроках.
replay-hands-hidden = За цим столом карти після гри не відкривають: у повторі кожен бачить лише свої.
replay-no-game = Тут ще немає завершених ігор для повтору.
review-not-yours = Розбір — для тих, хто грав у цій грі.
review-blind = Сліпі ігри (оборотний, китайський, невірний дурень) рушій не розбирає: там хід — це здогадка.
review-start-bot = Щоб отримати розбір, відкрийте особистий чат із ботом і натисніть «Старт».
review-queued = { $ahead ->
    [0] 📈 Розбираю гру — надішлю в особисті повідомлення.
    [one] 📈 Розбір у черзі: переді мною ще { $ahead } розбір. Надішлю в особисті повідомлення.
    [few] 📈 Розбір у черзі: переді мною ще { $ahead } розбори. Надішлю в особисті повідомлення.
   *[other] 📈 Розбір у черзі: переді мною ще { $ahead } розборів. Надішлю в особисті повідомлення.
}
review-waiting = 📈 Комп'ютерні гравці зараз зайняті: розбір гри { $game } зачекає, доки вони походять.
review-title = 📈 Розбір гри { $game } ({ $decisions ->
    [one] { $decisions } рішення
    [few] { $decisions } рішення
   *[other] { $decisions } рішень
}), де хід коштував тобі найбільше:
review-clean = 📈 Розбір гри { $game }: жоден із { $decisions } ходів не коштував тобі помітно. Так тримати!
review-moment = Хід { $move }: твій вибір — { $played }. Краще було { $preferred }: { $before }% → { $after }%
review-footer = Відсотки — шанс не залишитися дурнем, як його бачить рушій з того, що було видно з твого місця в той момент.
review-do-attack = зайти з { $cards }
review-do-throw = підкинути { $cards }
review-do-defend = покрити { $on } картою { $card }
review-do-take = взяти
review-do-pass = сказати «пас»
review-do-transfer = перевести картою { $card }
