-- A display name as every client accepts it: 1–20 letters, digits and underscores, in NFC.
-- Returns the key that decides uniqueness in a group (computed here, never taken from a client).
-- The locale's [[:alnum:]] is wider than the clients' letters and digits (DisplayName): it also
-- takes letter numbers (Ⅻ), circled letters (Ⓐ) and combining marks, which are refused here:
-- a name must be its own NFKC form (what compatibility characters are not), a letter number is
-- no letter, and a combining mark only follows a letter (the marks of the common scripts:
-- Latin, Greek, Cyrillic, Hebrew, Arabic, the Indic scripts and Thai; a name in a script whose
-- marks are not listed here is refused, never taken wider than the clients take it).
CREATE FUNCTION screenmates.name_key(p_name text) RETURNS text
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
DECLARE
    v_marks constant text := '\u0300-\u036F\u0483-\u0489\u0591-\u05C7\u0610-\u061A\u064B-\u065F\u0670'
        || '\u06D6-\u06ED\u0900-\u0903\u093A-\u094F\u0951-\u0957\u0962\u0963\u0981-\u0983\u09BC-\u09D7'
        || '\u09E2\u09E3\u0A01-\u0A03\u0A3C-\u0A51\u0A70\u0A71\u0A75\u0A81-\u0A83\u0ABC-\u0ACD\u0AE2\u0AE3'
        || '\u0B01-\u0B03\u0B3C-\u0B57\u0B82\u0BBE-\u0BCD\u0BD7\u0C00-\u0C04\u0C3E-\u0C56\u0C81-\u0C83'
        || '\u0CBC-\u0CD6\u0D00-\u0D03\u0D3B-\u0D57\u0E31\u0E34-\u0E3A\u0E47-\u0E4E\u1AB0-\u1AFF'
        || '\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F';
BEGIN
    IF p_name IS NULL OR char_length(p_name) NOT BETWEEN 1 AND 20
        OR p_name !~ ('^[[:alnum:]_][[:alnum:]_' || v_marks || ']*$')
        OR p_name ~ ('^[' || v_marks || ']')
        OR NOT p_name IS NFC NORMALIZED OR NOT p_name IS NFKC NORMALIZED
        OR p_name ~ '[\u2160-\u2188\u3007\u3021-\u3029\u3038-\u303A\u16EE-\u16F0]'
    THEN
        PERFORM screenmates.refuse('A display name is 1–20 letters, digits and underscores.');
    END IF;
    RETURN lower(p_name);
END $$
;
