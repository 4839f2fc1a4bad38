-- The group store's eighth schema on PostgreSQL: a group keeps only the day totals a screen or the
-- settlement can still ask for. Applied once, in one transaction, by the program itself.
-- Statements are separated by a line holding only `;`.
--
-- Day totals were kept for ever: a 50-member group writes about 18,000 a year, every one of them
-- in the group's index. No screen shows a period longer than this month (the leaderboard's week
-- and month, `group show`), and the weekly settlement reads a week's days only until the week's
-- result is final. So once a day (by the day the settling member names, never later than the
-- server's own), `settle_weeks` takes away, after settling, the group's day totals before the
-- first day of the previous month, except the days of a member's week whose result is still
-- pending: those wait for the missing days and are counted again when they come
-- (GroupStoreRules.retainedFrom says the same for the shared file). A day total that arrives late,
-- older than that, is kept until the next day's turn. Failed attempts were already kept a day.
--
-- Nothing a reader sees changes, so no removal is marked: a day total goes otherwise only with
-- its member, whose removal is (`member_removal`), and the day totals' own removal trigger is
-- dropped. `settle_weeks` keeps its arguments and answers: clients of the third schema on keep
-- working (compatible_from stays 3).

-- The day (a day number) a group's day totals were last taken away on; NULL before the first.
ALTER TABLE screenmates.group_info ADD COLUMN retained_on bigint
;
