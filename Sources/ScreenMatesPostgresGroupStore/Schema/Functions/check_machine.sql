-- The shapes of a machine's id (32 lowercase hexadecimal digits, or `first`: the machine the
-- clients of the third to fourteenth schemas write as) and of its name (1–32 of A-Z, a-z, 0-9,
-- '.', '_', '-'), checked as every client checks them (MachineID, MachineName).
CREATE FUNCTION screenmates.check_machine(p_machine text, p_name text) RETURNS void
LANGUAGE plpgsql VOLATILE SET search_path = screenmates, pg_temp AS $$
BEGIN
    IF p_machine IS NULL OR (p_machine <> 'first' AND (length(p_machine) <> 32 OR p_machine !~ '^[0-9a-f]+$')) THEN
        PERFORM screenmates.refuse('A machine''s id is 32 lowercase hexadecimal digits.');
    END IF;
    IF p_name IS NOT NULL AND (length(p_name) NOT BETWEEN 1 AND 32 OR p_name !~ '^[A-Za-z0-9._-]+$') THEN
        PERFORM screenmates.refuse('A machine''s name is 1–32 of the letters A-Z and a-z, digits, ''.'', ''_'' and ''-''.');
    END IF;
END $$
;
