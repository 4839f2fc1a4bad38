-- The group store's tenth schema on PostgreSQL: a group settled for a day is not settled again that
-- day until something that counts changed. Applied once, in one transaction, by the program itself.
-- Statements are separated by a line holding only `;`.
--
-- Every member's dashboard settles the group's weeks on its first exchange of each day (and after
-- sending finished days): `settle_weeks` locks the group's row and counts every member's weeks, so
-- a 50-member group's members queued for that lock fifty times a day for one settlement's worth
-- of work, and 5,000 members starting at once queued 5,000 times. A settlement's result depends
-- only on the day it settles for, the group's day totals, its members and their join days, and
-- its rules. Each group now keeps `settle_seq`, the change number of the last write to any of
-- those (stamped by triggers as the fourth schema stamps rows), and, for the last settlement,
-- the day it settled for (`settled_on`) and the `settle_seq` it saw (`settled_seq`). A settlement
-- for that day or an earlier one that finds `settle_seq` unmoved would change nothing: it answers
-- at once, without the lock, once the caller is verified (in one statement, as `change_mark` is).
-- Anything else settles exactly as before. `settle_weeks` keeps its arguments and answers:
-- clients of the third schema on keep working (compatible_from stays 3), and their writes are
-- stamped too.

ALTER TABLE screenmates.group_info ADD COLUMN settle_seq bigint NOT NULL DEFAULT 0,
    ADD COLUMN settled_seq bigint NOT NULL DEFAULT 0, ADD COLUMN settled_on bigint
;
