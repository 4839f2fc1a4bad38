-- The group store's ninth schema on PostgreSQL: the games' own change number. Applied once, in one
-- transaction, by the program itself. Statements are separated by a line holding only `;`.
--
-- A member's dashboard reads the group's games (challenges with their participants, coins and
-- badges, the settlement rules, week results) again at every move of the group's change number:
-- five calls, though nearly every move is a mate's block, which changes none of them. Measured
-- with the scale benchmark's games (1,000 members through PgBouncer), those calls were most of
-- what the server did. Each group now also keeps `games_seq`, the change number of the last write
-- that changed what the games show, stamped by triggers as the fourth schema stamps rows (the
-- group's change number plus one, with the group's row locked): a challenge or a participant
-- written or taken away, a week result, a member's standing (in every group they are in), a member
-- joining, leaving or renamed, the settlement rules. `games_marks` answers it with the change marks,
-- in one statement: a reader whose games are complete up to change number N, seeing `games_seq` at
-- or below N, knows they are complete up to the change number it reads with it, and reads nothing
-- more. Adds a column, triggers and a function: clients of the third schema on keep working
-- (compatible_from stays 3), and their writes are stamped too.

ALTER TABLE screenmates.group_info ADD COLUMN games_seq bigint NOT NULL DEFAULT 0
;

-- What games a group had before this schema were written at some change number up to its current
-- one: every reader's games older than that are read again once.
UPDATE screenmates.group_info SET games_seq = change_seq
;
