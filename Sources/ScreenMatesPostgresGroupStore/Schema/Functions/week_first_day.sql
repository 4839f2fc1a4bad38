-- The first day of the week holding day `p_day`, for weeks starting on ISO weekday `p_start`.
CREATE FUNCTION screenmates.week_first_day(p_day bigint, p_start integer) RETURNS bigint
LANGUAGE sql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
    SELECT p_day - (((((p_day + 3) % 7) + 7) % 7 + 1 - p_start + 7) % 7)
$$
;
