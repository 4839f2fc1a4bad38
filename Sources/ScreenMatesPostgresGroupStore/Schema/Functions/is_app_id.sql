-- Whether a text is an app id a shared rule may name, as every client takes it
-- (`TextRules.isAppID`): 1 to 64 scalars, each one shown as it is (`app_id_scalars`, generated
-- from the clients' rule: no control, line break, format character, variation selector, private
-- use or unassigned scalar). TextRulesAgreementTests runs every scalar through this and the
-- clients. In PL/pgSQL, whose plans a session keeps: the pattern is made once, not at every call.
CREATE FUNCTION screenmates.is_app_id(p_app text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = screenmates, pg_temp AS $$
BEGIN
    RETURN coalesce(char_length(p_app) BETWEEN 1 AND 64
        AND p_app ~ ('^[' || screenmates.app_id_scalars() || ']+$'), false);
END $$
;
