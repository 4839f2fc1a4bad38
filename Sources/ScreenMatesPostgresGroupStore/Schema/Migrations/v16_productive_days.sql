-- The group store's sixteenth schema on PostgreSQL: each machine's productive blocks, for its member.
--
-- On each of a member's machines the person's day is the sum of all of them, and the balance is
-- earned on productive apps as well as spent on vice ones: a machine now says its productive blocks
-- too, today's (`upsert_machine_profile`, p_productive_today) and each day's (`upsert_machine_days`,
-- p_productive), kept with its own rows in the columns the fifteenth level made for them. Only the
-- member reads them (`my_machines`, `my_machine_days`); other members see the vice sums as before.
-- A machine that sends none (the clients of the third to fifteenth schemas, which keep working:
-- compatible_from stays 3) leaves them empty, and its productive time stays on it.
COMMENT ON COLUMN screenmates.machine.productive_today IS
    'The productive blocks the machine said of its day last; NULL when it said none. Read by its member only.'
;

COMMENT ON COLUMN screenmates.machine_day_total.productive_blocks IS
    'The machine''s productive blocks that day; NULL when it said none. Read by its member only.'
;
