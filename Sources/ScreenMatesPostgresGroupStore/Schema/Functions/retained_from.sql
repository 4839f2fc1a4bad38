-- The first day a group keeps on `p_today`: the first day of the month before `p_today`'s
-- (GroupStoreRules.retainedFrom: no screen shows a longer period than this month, and the month
-- before covers members whose day is still yesterday somewhere).
CREATE FUNCTION screenmates.retained_from(p_today bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
    SELECT ((date_trunc('month', date '1970-01-01' + p_today::integer) - interval '1 month')::date
        - date '1970-01-01')::bigint
$$
;
