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

-- == The stamps (trigger functions, not granted) ==
-- A row of the games written or taken away: its group's games move with this change.
CREATE FUNCTION screenmates.stamp_games() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_code text;
BEGIN
    IF TG_OP = 'DELETE' THEN
        v_code := OLD.code;
    ELSE
        v_code := NEW.code;
    END IF;
    UPDATE screenmates.group_info g SET games_seq = g.change_seq + 1
        WHERE g.code = v_code AND g.games_seq <> g.change_seq + 1;
    RETURN NULL;
END $$
;

-- A member's standing (coins, badges, a public ranking) shows in every group they are in.
CREATE FUNCTION screenmates.stamp_standing_games() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    UPDATE screenmates.group_info g SET games_seq = g.change_seq + 1
        FROM screenmates.member m
        WHERE m.user_id = NEW.user_id AND g.code = m.code AND g.games_seq <> g.change_seq + 1;
    RETURN NULL;
END $$
;

-- The settlement rules are the group's own columns: a change to them is a change of the games.
CREATE FUNCTION screenmates.stamp_rules_games() RETURNS trigger
LANGUAGE plpgsql SET search_path = screenmates, pg_temp AS $$
BEGIN
    NEW.games_seq := OLD.change_seq + 1;
    RETURN NEW;
END $$
;

CREATE TRIGGER group_challenge_games AFTER INSERT OR UPDATE OR DELETE ON screenmates.group_challenge
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;

CREATE TRIGGER challenge_participant_games AFTER INSERT OR UPDATE OR DELETE ON screenmates.challenge_participant
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;

CREATE TRIGGER week_result_games AFTER INSERT OR UPDATE OR DELETE ON screenmates.week_result
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;

-- A member's profile changes at every block and is none of the games': only joining, leaving and a
-- new name are (the coins and the boards list members by name).
CREATE TRIGGER member_games AFTER INSERT OR DELETE ON screenmates.member
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games()
;

CREATE TRIGGER member_renamed_games AFTER UPDATE OF display_name ON screenmates.member
    FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name)
    EXECUTE FUNCTION screenmates.stamp_games()
;

CREATE TRIGGER coin_standing_games AFTER INSERT OR UPDATE ON screenmates.coin_standing
    FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_standing_games()
;

CREATE TRIGGER group_rules_games BEFORE UPDATE OF week_start, kept_day_coins, over_day_coins, missing_days,
    settle_from ON screenmates.group_info
    FOR EACH ROW WHEN (
        OLD.week_start IS DISTINCT FROM NEW.week_start OR OLD.kept_day_coins IS DISTINCT FROM NEW.kept_day_coins
        OR OLD.over_day_coins IS DISTINCT FROM NEW.over_day_coins
        OR OLD.missing_days IS DISTINCT FROM NEW.missing_days OR OLD.settle_from IS DISTINCT FROM NEW.settle_from)
    EXECUTE FUNCTION screenmates.stamp_rules_games()
;

REVOKE ALL ON FUNCTION screenmates.stamp_games, screenmates.stamp_standing_games, screenmates.stamp_rules_games
FROM PUBLIC
;

-- == The call ==
-- The group's change number, the change number of the last write that took a row away and that of
-- the last write that changed its games; no row for a code that names no group. Verified as
-- `change_marks` is: the usual caller in one statement, anyone else by the full path.
CREATE FUNCTION screenmates.games_marks(p_user text, p_secret text, p_code text)
RETURNS TABLE (change_seq bigint, removed_seq bigint, games_seq bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
#variable_conflict use_column
DECLARE
    v_user text;
    v_mark bigint;
    v_removed bigint;
    v_games bigint;
BEGIN
    SELECT v.change_seq, v.removed_seq, g.games_seq INTO v_mark, v_removed, v_games
        FROM screenmates.verified_marks(p_user, p_secret, p_code) v
        JOIN screenmates.group_info g ON g.code = p_code;
    IF FOUND THEN
        RETURN QUERY SELECT v_mark, v_removed, v_games;
        RETURN;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT g.change_seq, g.removed_seq, g.games_seq FROM screenmates.group_info g WHERE g.code = p_code;
END $$
;

REVOKE ALL ON FUNCTION screenmates.games_marks FROM PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.games_marks TO PUBLIC
;

-- What a reader that has seen change number `p_after` needs, as `group_changes_after` answers it,
-- then the games' change number, read after the change marks: one more row, of kind 'games', with
-- `games_seq` as its `blocks`. A member's look at each change learns with it whether the games
-- changed, so their games cost no call of their own when they did not. Nothing for a caller
-- `group_changes_after` refuses or a code that names no group.
CREATE FUNCTION screenmates.group_changes_and_games_after(
    p_user text, p_secret text, p_code text, p_after bigint, p_week_first bigint, p_week_last bigint,
    p_month_first bigint, p_month_last bigint
) RETURNS TABLE (kind text, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint,
    last_active bigint, last_updated bigint, version bigint, blocks bigint, date bigint, vice_blocks bigint,
    goal_blocks bigint)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = screenmates, pg_temp SET lock_timeout = '2s' AS $$
BEGIN
    RETURN QUERY SELECT * FROM screenmates.group_changes_after(
        p_user, p_secret, p_code, p_after, p_week_first, p_week_last, p_month_first, p_month_last);
    IF FOUND THEN
        RETURN QUERY SELECT 'games'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint, g.games_seq, NULL::bigint, NULL::bigint, NULL::bigint
            FROM screenmates.group_info g WHERE g.code = p_code;
    END IF;
END $$
;

REVOKE ALL ON FUNCTION screenmates.group_changes_and_games_after FROM PUBLIC
;

GRANT EXECUTE ON FUNCTION screenmates.group_changes_and_games_after TO PUBLIC
;
