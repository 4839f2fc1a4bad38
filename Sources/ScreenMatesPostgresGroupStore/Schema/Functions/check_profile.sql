-- The profile fields a member shares, checked as every client checks them, with the productive
-- blocks a machine may say of its day (for its member only; NULL: none said).
CREATE FUNCTION screenmates.check_profile(
    p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint,
    p_productive_today bigint DEFAULT NULL
) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_blocks IS NULL OR p_blocks NOT BETWEEN 0 AND 1440 OR p_productive_today NOT BETWEEN 0 AND 1440 THEN
        PERFORM screenmates.refuse('A day holds 0 to 1440 blocks.');
    END IF;
    IF p_streak IS NULL OR p_streak NOT BETWEEN 0 AND 36525 THEN
        PERFORM screenmates.refuse('A streak is 0 to 36525 days.');
    END IF;
    IF NOT screenmates.is_instant(p_last_updated) OR (p_last_active IS NOT NULL AND NOT screenmates.is_instant(p_last_active))
    THEN
        PERFORM screenmates.refuse('A member''s last-active and last-updated times must be real instants.');
    END IF;
    PERFORM screenmates.check_version(p_version);
    PERFORM screenmates.check_today(p_day);
END $$
;
