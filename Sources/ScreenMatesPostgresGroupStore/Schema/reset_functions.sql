-- Runs at every upgrade, after the tables' migrations and before the files of Functions/: every
-- trigger on the schema's tables and every function in the schema go, so that what is left
-- afterwards is exactly what Functions/ holds, whatever level the schema came from. No
-- constraint, default, index or view calls a function of the schema (the schema's statement shows it),
-- so the tables and their rows are untouched; every table the triggers were on is locked until
-- the upgrade commits.
DO $$
DECLARE
    v_drop text;
BEGIN
    FOR v_drop IN
        SELECT format('DROP TRIGGER %I ON %s', t.tgname, t.tgrelid::regclass)
        FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
        WHERE c.relnamespace = 'screenmates'::regnamespace AND NOT t.tgisinternal
        ORDER BY 1
    LOOP
        EXECUTE v_drop;
    END LOOP;
    FOR v_drop IN
        SELECT format('DROP FUNCTION %s', p.oid::regprocedure)
        FROM pg_catalog.pg_proc p WHERE p.pronamespace = 'screenmates'::regnamespace
        ORDER BY 1
    LOOP
        EXECUTE v_drop;
    END LOOP;
END $$
;
