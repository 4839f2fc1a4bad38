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

-- == The stamp (a trigger function, not granted) ==
CREATE FUNCTION screenmates.stamp_settlement() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_code text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        v_code := OLD.code;
    ELSE
        v_code := NEW.code;
    END IF;
    UPDATE screenmates.group_info g SET settle_seq = g.change_seq + 1
        WHERE g.code = v_code AND g.settle_seq <> g.change_seq + 1;
    RETURN NULL;
END $$
;

-- The rules are the group's own columns.
CREATE FUNCTION screenmates.stamp_rules_settlement() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    NEW.settle_seq := OLD.change_seq + 1;
    RETURN NEW;
END $$
;

-- A day total taken away goes with its member (stamped below) or because no settlement asks for
-- it any more (`retain_day_totals`): neither changes a settlement.
CREATE TRIGGER day_total_settlement AFTER INSERT OR UPDATE ON screenmates.day_total
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_settlement()
;

CREATE TRIGGER member_settlement AFTER INSERT OR DELETE OR UPDATE OF joined_at ON screenmates.member
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_settlement()
;

CREATE TRIGGER group_rules_settlement BEFORE UPDATE OF week_start, kept_day_coins, over_day_coins, missing_days,
    settle_from ON screenmates.group_info
    FOR EACH ROW WHEN (
        OLD.week_start IS DISTINCT FROM NEW.week_start OR OLD.kept_day_coins IS DISTINCT FROM NEW.kept_day_coins
        OR OLD.over_day_coins IS DISTINCT FROM NEW.over_day_coins
        OR OLD.missing_days IS DISTINCT FROM NEW.missing_days OR OLD.settle_from IS DISTINCT FROM NEW.settle_from)
    EXECUTE FUNCTION screenmates.stamp_rules_settlement()
;

REVOKE ALL ON FUNCTION screenmates.stamp_settlement, screenmates.stamp_rules_settlement FROM PUBLIC
;

-- == The call ==
-- The eighth schema's settlement (settling, then keeping the day totals still asked for), under a
-- name of its own and granted to no one.
ALTER FUNCTION screenmates.settle_weeks(text, text, text, bigint, bigint) RENAME TO settle_and_retain
;

REVOKE ALL ON FUNCTION screenmates.settle_and_retain FROM PUBLIC
;

CREATE FUNCTION screenmates.settle_weeks(p_user text, p_secret text, p_code text, p_today bigint, p_now bigint)
RETURNS TABLE (known boolean, settled bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
DECLARE
    v_today bigint := least(p_today, floor((extract(epoch FROM clock_timestamp()) + 50400) / 86400)::bigint);
    v_known boolean;
    v_settled bigint;
BEGIN
    -- The usual call: a member, verified in one statement, on a day already settled for with
    -- nothing that counts written since.
    IF p_today BETWEEN -719162 AND 2932896 AND EXISTS (
        SELECT 1 FROM screenmates.verified_marks(p_user, p_secret, p_code) v
        JOIN screenmates.group_info g ON g.code = p_code
        WHERE g.settled_on >= v_today AND g.settle_seq = g.settled_seq)
    THEN
        RETURN QUERY SELECT true, 0::bigint;
        RETURN;
    END IF;
    SELECT s.known, s.settled INTO v_known, v_settled
        FROM screenmates.settle_and_retain(p_user, p_secret, p_code, p_today, p_now) s;
    IF v_known THEN
        -- The group's row is locked (by the settlement): nothing that counts was written since it
        -- counted.
        UPDATE screenmates.group_info g SET settled_on = v_today, settled_seq = g.settle_seq WHERE g.code = p_code;
    END IF;
    RETURN QUERY SELECT v_known, v_settled;
END $$
;

REVOKE ALL ON FUNCTION screenmates.settle_weeks FROM PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.settle_weeks TO PUBLIC
;
