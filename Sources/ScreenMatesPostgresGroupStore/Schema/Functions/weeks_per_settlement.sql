-- How many weeks one settlement looks back at most (WeekSettlement.maximumWeeksPerCall): a group
-- settled long ago catches up over several calls rather than in one huge transaction. A plain
-- SQL function without settings, so the planner folds the constant into `settle_weeks`.
CREATE FUNCTION screenmates.weeks_per_settlement() RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT 520::bigint
$$
;
