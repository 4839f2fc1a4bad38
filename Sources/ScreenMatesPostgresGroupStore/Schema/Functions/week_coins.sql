-- What a settled week comes to: kept days earn the kept-day coins, days over and missing days cost
-- the over-day coins (WeekSettlement.coins, the clients' rule; PostgresSettlementAgreementTests
-- holds the two equal). No overflow: a week has at most 7 days and a rate at most 1000 coins.
-- A plain SQL function without settings, so the planner folds it into `settle_weeks`' statements.
CREATE FUNCTION screenmates.week_coins(
    p_kept bigint, p_over bigint, p_missing bigint, p_kept_day_coins bigint, p_over_day_coins bigint
) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
    SELECT p_kept * p_kept_day_coins - (p_over + p_missing) * p_over_day_coins
$$
;
