-- Whether a text is a display name as every client takes it (TextRules and DisplayName, in
-- ScreenMatesCore): a letter, digit or underscore first, then letters, digits, underscores and
-- combining marks (the sets `name_letters` and `name_marks`, generated from the clients' rule);
-- at most 20 letters, digits and underscores and 60 scalars in all; its own NFC and NFKC form.
-- TextRulesAgreementTests runs every scalar through this and the clients. In PL/pgSQL, whose
-- plans a session keeps: the patterns are made once, not at every call.
CREATE FUNCTION screenmates.is_name(p_name text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    RETURN coalesce(char_length(p_name) BETWEEN 1 AND 60
        AND p_name ~ ('^[' || screenmates.name_letters() || '][' || screenmates.name_letters()
            || screenmates.name_marks() || ']*$')
        AND char_length(regexp_replace(p_name, '[' || screenmates.name_marks() || ']', '', 'g')) <= 20
        AND p_name IS NFC NORMALIZED AND p_name IS NFKC NORMALIZED, false);
END $$
;
