-- The group store's schema on PostgreSQL at level 16, as a fresh install and every
-- upgrade leave it: `pg_dump --schema-only --schema=screenmates --no-owner`, without the lines
-- naming versions and psql's restrict key. Generated, never edited: the functions live in
-- Sources/ScreenMatesPostgresGroupStore/Schema/Functions/, the tables in its Migrations/. PostgresSchemaStructureTests compares it with a fresh
-- install; SCREENMATES_UPDATE_SCHEMA=1 swift test --filter PostgresSchemaStructureTests
-- writes it again.
--
-- PostgreSQL database dump
--



SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: screenmates; Type: SCHEMA; Schema: -; Owner: -
--

CREATE SCHEMA screenmates;


--
-- Name: add_machine(text, text, text, text, boolean); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.add_machine(p_user text, p_secret text, p_machine text, p_name text, p_adopt boolean) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_now bigint := screenmates.server_ms();
    v_known screenmates.machine%ROWTYPE;
    v_first screenmates.machine%ROWTYPE;
BEGIN
    PERFORM screenmates.check_machine(p_machine, p_name);
    IF p_machine = 'first' OR p_name IS NULL THEN
        PERFORM screenmates.refuse('A machine is added with an id of its own and a name.');
    END IF;
    IF p_adopt THEN
        PERFORM 1 FROM screenmates.group_info g
            WHERE g.code IN (SELECT m.code FROM screenmates.member m WHERE m.user_id = v_user)
            ORDER BY g.code FOR UPDATE;
    END IF;
    PERFORM 1 FROM screenmates.identity d WHERE d.user_id = v_user FOR UPDATE;
    SELECT * INTO v_known FROM screenmates.machine m WHERE m.user_id = v_user AND m.machine_id = p_machine FOR UPDATE;
    IF FOUND THEN
        IF v_known.retired_at IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'SMRET', MESSAGE = 'This machine was removed from your machines.',
                DETAIL = v_known.name;
        END IF;
        RETURN 'known';
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.machine m
        WHERE m.user_id = v_user AND m.retired_at IS NULL AND lower(m.name) = lower(p_name))
    THEN
        RAISE EXCEPTION USING ERRCODE = 'SMDNM', MESSAGE = 'Another of your machines has this name.', DETAIL = p_name;
    END IF;
    IF p_adopt THEN
        SELECT * INTO v_first FROM screenmates.machine m
            WHERE m.user_id = v_user AND m.machine_id = 'first' AND m.retired_at IS NULL FOR UPDATE;
        IF FOUND THEN
            INSERT INTO screenmates.machine (user_id, machine_id, name, added_at, last_seen, adopted_first,
                blocks_today, day, streak, version, sent_name)
            VALUES (v_user, p_machine, p_name, v_first.added_at, v_now, true, v_first.blocks_today, v_first.day,
                v_first.streak, 0, v_first.sent_name);
            UPDATE screenmates.machine_day_total t SET machine_id = p_machine, version = 0
                WHERE t.user_id = v_user AND t.machine_id = 'first';
            DELETE FROM screenmates.machine m WHERE m.user_id = v_user AND m.machine_id = 'first';
            RETURN 'adopted';
        END IF;
    END IF;
    PERFORM screenmates.machine_quota(v_user);
    INSERT INTO screenmates.machine (user_id, machine_id, name, added_at, last_seen)
        VALUES (v_user, p_machine, p_name, v_now, v_now);
    RETURN 'added';
END $$;


--
-- Name: app_id_scalars(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.app_id_scalars() RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT '\u0020-\u007E\u00A0-\u00AC\u00AE-\u0377\u037A-\u037F\u0384-\u038A\u038C\u038E-\u03A1'
        '\u03A3-\u052F\u0531-\u0556\u0559-\u058A\u058D-\u058F\u0591-\u05C7\u05D0-\u05EA'
        '\u05EF-\u05F4\u0606-\u061B\u061D-\u06DC\u06DE-\u070D\u0710-\u074A\u074D-\u07B1'
        '\u07C0-\u07FA\u07FD-\u082D\u0830-\u083E\u0840-\u085B\u085E\u0860-\u086A\u0870-\u088E'
        '\u0898-\u08E1\u08E3-\u0983\u0985-\u098C\u098F-\u0990\u0993-\u09A8\u09AA-\u09B0\u09B2'
        '\u09B6-\u09B9\u09BC-\u09C4\u09C7-\u09C8\u09CB-\u09CE\u09D7\u09DC-\u09DD\u09DF-\u09E3'
        '\u09E6-\u09FE\u0A01-\u0A03\u0A05-\u0A0A\u0A0F-\u0A10\u0A13-\u0A28\u0A2A-\u0A30'
        '\u0A32-\u0A33\u0A35-\u0A36\u0A38-\u0A39\u0A3C\u0A3E-\u0A42\u0A47-\u0A48\u0A4B-\u0A4D\u0A51'
        '\u0A59-\u0A5C\u0A5E\u0A66-\u0A76\u0A81-\u0A83\u0A85-\u0A8D\u0A8F-\u0A91\u0A93-\u0AA8'
        '\u0AAA-\u0AB0\u0AB2-\u0AB3\u0AB5-\u0AB9\u0ABC-\u0AC5\u0AC7-\u0AC9\u0ACB-\u0ACD\u0AD0'
        '\u0AE0-\u0AE3\u0AE6-\u0AF1\u0AF9-\u0AFF\u0B01-\u0B03\u0B05-\u0B0C\u0B0F-\u0B10'
        '\u0B13-\u0B28\u0B2A-\u0B30\u0B32-\u0B33\u0B35-\u0B39\u0B3C-\u0B44\u0B47-\u0B48'
        '\u0B4B-\u0B4D\u0B55-\u0B57\u0B5C-\u0B5D\u0B5F-\u0B63\u0B66-\u0B77\u0B82-\u0B83'
        '\u0B85-\u0B8A\u0B8E-\u0B90\u0B92-\u0B95\u0B99-\u0B9A\u0B9C\u0B9E-\u0B9F\u0BA3-\u0BA4'
        '\u0BA8-\u0BAA\u0BAE-\u0BB9\u0BBE-\u0BC2\u0BC6-\u0BC8\u0BCA-\u0BCD\u0BD0\u0BD7\u0BE6-\u0BFA'
        '\u0C00-\u0C0C\u0C0E-\u0C10\u0C12-\u0C28\u0C2A-\u0C39\u0C3C-\u0C44\u0C46-\u0C48'
        '\u0C4A-\u0C4D\u0C55-\u0C56\u0C58-\u0C5A\u0C5D\u0C60-\u0C63\u0C66-\u0C6F\u0C77-\u0C8C'
        '\u0C8E-\u0C90\u0C92-\u0CA8\u0CAA-\u0CB3\u0CB5-\u0CB9\u0CBC-\u0CC4\u0CC6-\u0CC8'
        '\u0CCA-\u0CCD\u0CD5-\u0CD6\u0CDD-\u0CDE\u0CE0-\u0CE3\u0CE6-\u0CEF\u0CF1-\u0CF2'
        '\u0D00-\u0D0C\u0D0E-\u0D10\u0D12-\u0D44\u0D46-\u0D48\u0D4A-\u0D4F\u0D54-\u0D63'
        '\u0D66-\u0D7F\u0D81-\u0D83\u0D85-\u0D96\u0D9A-\u0DB1\u0DB3-\u0DBB\u0DBD\u0DC0-\u0DC6\u0DCA'
        '\u0DCF-\u0DD4\u0DD6\u0DD8-\u0DDF\u0DE6-\u0DEF\u0DF2-\u0DF4\u0E01-\u0E3A\u0E3F-\u0E5B'
        '\u0E81-\u0E82\u0E84\u0E86-\u0E8A\u0E8C-\u0EA3\u0EA5\u0EA7-\u0EBD\u0EC0-\u0EC4\u0EC6'
        '\u0EC8-\u0ECD\u0ED0-\u0ED9\u0EDC-\u0EDF\u0F00-\u0F47\u0F49-\u0F6C\u0F71-\u0F97'
        '\u0F99-\u0FBC\u0FBE-\u0FCC\u0FCE-\u0FDA\u1000-\u10C5\u10C7\u10CD\u10D0-\u1248\u124A-\u124D'
        '\u1250-\u1256\u1258\u125A-\u125D\u1260-\u1288\u128A-\u128D\u1290-\u12B0\u12B2-\u12B5'
        '\u12B8-\u12BE\u12C0\u12C2-\u12C5\u12C8-\u12D6\u12D8-\u1310\u1312-\u1315\u1318-\u135A'
        '\u135D-\u137C\u1380-\u1399\u13A0-\u13F5\u13F8-\u13FD\u1400-\u169C\u16A0-\u16F8'
        '\u1700-\u1715\u171F-\u1736\u1740-\u1753\u1760-\u176C\u176E-\u1770\u1772-\u1773'
        '\u1780-\u17DD\u17E0-\u17E9\u17F0-\u17F9\u1800-\u180D\u180F-\u1819\u1820-\u1878'
        '\u1880-\u18AA\u18B0-\u18F5\u1900-\u191E\u1920-\u192B\u1930-\u193B\u1940\u1944-\u196D'
        '\u1970-\u1974\u1980-\u19AB\u19B0-\u19C9\u19D0-\u19DA\u19DE-\u1A1B\u1A1E-\u1A5E'
        '\u1A60-\u1A7C\u1A7F-\u1A89\u1A90-\u1A99\u1AA0-\u1AAD\u1AB0-\u1ACE\u1B00-\u1B4C'
        '\u1B50-\u1B7E\u1B80-\u1BF3\u1BFC-\u1C37\u1C3B-\u1C49\u1C4D-\u1C88\u1C90-\u1CBA'
        '\u1CBD-\u1CC7\u1CD0-\u1CFA\u1D00-\u1F15\u1F18-\u1F1D\u1F20-\u1F45\u1F48-\u1F4D'
        '\u1F50-\u1F57\u1F59\u1F5B\u1F5D\u1F5F-\u1F7D\u1F80-\u1FB4\u1FB6-\u1FC4\u1FC6-\u1FD3'
        '\u1FD6-\u1FDB\u1FDD-\u1FEF\u1FF2-\u1FF4\u1FF6-\u1FFE\u2000-\u200A\u2010-\u2027'
        '\u202F-\u205F\u2070-\u2071\u2074-\u208E\u2090-\u209C\u20A0-\u20C0\u20D0-\u20F0'
        '\u2100-\u218B\u2190-\u2426\u2440-\u244A\u2460-\u2B73\u2B76-\u2B95\u2B97-\u2CF3'
        '\u2CF9-\u2D25\u2D27\u2D2D\u2D30-\u2D67\u2D6F-\u2D70\u2D7F-\u2D96\u2DA0-\u2DA6\u2DA8-\u2DAE'
        '\u2DB0-\u2DB6\u2DB8-\u2DBE\u2DC0-\u2DC6\u2DC8-\u2DCE\u2DD0-\u2DD6\u2DD8-\u2DDE'
        '\u2DE0-\u2E5D\u2E80-\u2E99\u2E9B-\u2EF3\u2F00-\u2FD5\u2FF0-\u2FFB\u3000-\u303F'
        '\u3041-\u3096\u3099-\u30FF\u3105-\u312F\u3131-\u318E\u3190-\u31E3\u31F0-\u321E'
        '\u3220-\uA48C\uA490-\uA4C6\uA4D0-\uA62B\uA640-\uA6F7\uA700-\uA7CA\uA7D0-\uA7D1\uA7D3'
        '\uA7D5-\uA7D9\uA7F2-\uA82C\uA830-\uA839\uA840-\uA877\uA880-\uA8C5\uA8CE-\uA8D9'
        '\uA8E0-\uA953\uA95F-\uA97C\uA980-\uA9CD\uA9CF-\uA9D9\uA9DE-\uA9FE\uAA00-\uAA36'
        '\uAA40-\uAA4D\uAA50-\uAA59\uAA5C-\uAAC2\uAADB-\uAAF6\uAB01-\uAB06\uAB09-\uAB0E'
        '\uAB11-\uAB16\uAB20-\uAB26\uAB28-\uAB2E\uAB30-\uAB6B\uAB70-\uABED\uABF0-\uABF9'
        '\uAC00-\uD7A3\uD7B0-\uD7C6\uD7CB-\uD7FB\uF900-\uFA6D\uFA70-\uFAD9\uFB00-\uFB06'
        '\uFB13-\uFB17\uFB1D-\uFB36\uFB38-\uFB3C\uFB3E\uFB40-\uFB41\uFB43-\uFB44\uFB46-\uFBC2'
        '\uFBD3-\uFD8F\uFD92-\uFDC7\uFDCF\uFDF0-\uFDFF\uFE10-\uFE19\uFE20-\uFE52\uFE54-\uFE66'
        '\uFE68-\uFE6B\uFE70-\uFE74\uFE76-\uFEFC\uFF01-\uFFBE\uFFC2-\uFFC7\uFFCA-\uFFCF'
        '\uFFD2-\uFFD7\uFFDA-\uFFDC\uFFE0-\uFFE6\uFFE8-\uFFEE\uFFFC-\uFFFD\U00010000-\U0001000B'
        '\U0001000D-\U00010026\U00010028-\U0001003A\U0001003C-\U0001003D\U0001003F-\U0001004D'
        '\U00010050-\U0001005D\U00010080-\U000100FA\U00010100-\U00010102\U00010107-\U00010133'
        '\U00010137-\U0001018E\U00010190-\U0001019C\U000101A0\U000101D0-\U000101FD'
        '\U00010280-\U0001029C\U000102A0-\U000102D0\U000102E0-\U000102FB\U00010300-\U00010323'
        '\U0001032D-\U0001034A\U00010350-\U0001037A\U00010380-\U0001039D\U0001039F-\U000103C3'
        '\U000103C8-\U000103D5\U00010400-\U0001049D\U000104A0-\U000104A9\U000104B0-\U000104D3'
        '\U000104D8-\U000104FB\U00010500-\U00010527\U00010530-\U00010563\U0001056F-\U0001057A'
        '\U0001057C-\U0001058A\U0001058C-\U00010592\U00010594-\U00010595\U00010597-\U000105A1'
        '\U000105A3-\U000105B1\U000105B3-\U000105B9\U000105BB-\U000105BC\U00010600-\U00010736'
        '\U00010740-\U00010755\U00010760-\U00010767\U00010780-\U00010785\U00010787-\U000107B0'
        '\U000107B2-\U000107BA\U00010800-\U00010805\U00010808\U0001080A-\U00010835'
        '\U00010837-\U00010838\U0001083C\U0001083F-\U00010855\U00010857-\U0001089E'
        '\U000108A7-\U000108AF\U000108E0-\U000108F2\U000108F4-\U000108F5\U000108FB-\U0001091B'
        '\U0001091F-\U00010939\U0001093F\U00010980-\U000109B7\U000109BC-\U000109CF'
        '\U000109D2-\U00010A03\U00010A05-\U00010A06\U00010A0C-\U00010A13\U00010A15-\U00010A17'
        '\U00010A19-\U00010A35\U00010A38-\U00010A3A\U00010A3F-\U00010A48\U00010A50-\U00010A58'
        '\U00010A60-\U00010A9F\U00010AC0-\U00010AE6\U00010AEB-\U00010AF6\U00010B00-\U00010B35'
        '\U00010B39-\U00010B55\U00010B58-\U00010B72\U00010B78-\U00010B91\U00010B99-\U00010B9C'
        '\U00010BA9-\U00010BAF\U00010C00-\U00010C48\U00010C80-\U00010CB2\U00010CC0-\U00010CF2'
        '\U00010CFA-\U00010D27\U00010D30-\U00010D39\U00010E60-\U00010E7E\U00010E80-\U00010EA9'
        '\U00010EAB-\U00010EAD\U00010EB0-\U00010EB1\U00010F00-\U00010F27\U00010F30-\U00010F59'
        '\U00010F70-\U00010F89\U00010FB0-\U00010FCB\U00010FE0-\U00010FF6\U00011000-\U0001104D'
        '\U00011052-\U00011075\U0001107F-\U000110BC\U000110BE-\U000110C2\U000110D0-\U000110E8'
        '\U000110F0-\U000110F9\U00011100-\U00011134\U00011136-\U00011147\U00011150-\U00011176'
        '\U00011180-\U000111DF\U000111E1-\U000111F4\U00011200-\U00011211\U00011213-\U0001123E'
        '\U00011280-\U00011286\U00011288\U0001128A-\U0001128D\U0001128F-\U0001129D'
        '\U0001129F-\U000112A9\U000112B0-\U000112EA\U000112F0-\U000112F9\U00011300-\U00011303'
        '\U00011305-\U0001130C\U0001130F-\U00011310\U00011313-\U00011328\U0001132A-\U00011330'
        '\U00011332-\U00011333\U00011335-\U00011339\U0001133B-\U00011344\U00011347-\U00011348'
        '\U0001134B-\U0001134D\U00011350\U00011357\U0001135D-\U00011363\U00011366-\U0001136C'
        '\U00011370-\U00011374\U00011400-\U0001145B\U0001145D-\U00011461\U00011480-\U000114C7'
        '\U000114D0-\U000114D9\U00011580-\U000115B5\U000115B8-\U000115DD\U00011600-\U00011644'
        '\U00011650-\U00011659\U00011660-\U0001166C\U00011680-\U000116B9\U000116C0-\U000116C9'
        '\U00011700-\U0001171A\U0001171D-\U0001172B\U00011730-\U00011746\U00011800-\U0001183B'
        '\U000118A0-\U000118F2\U000118FF-\U00011906\U00011909\U0001190C-\U00011913'
        '\U00011915-\U00011916\U00011918-\U00011935\U00011937-\U00011938\U0001193B-\U00011946'
        '\U00011950-\U00011959\U000119A0-\U000119A7\U000119AA-\U000119D7\U000119DA-\U000119E4'
        '\U00011A00-\U00011A47\U00011A50-\U00011AA2\U00011AB0-\U00011AF8\U00011C00-\U00011C08'
        '\U00011C0A-\U00011C36\U00011C38-\U00011C45\U00011C50-\U00011C6C\U00011C70-\U00011C8F'
        '\U00011C92-\U00011CA7\U00011CA9-\U00011CB6\U00011D00-\U00011D06\U00011D08-\U00011D09'
        '\U00011D0B-\U00011D36\U00011D3A\U00011D3C-\U00011D3D\U00011D3F-\U00011D47'
        '\U00011D50-\U00011D59\U00011D60-\U00011D65\U00011D67-\U00011D68\U00011D6A-\U00011D8E'
        '\U00011D90-\U00011D91\U00011D93-\U00011D98\U00011DA0-\U00011DA9\U00011EE0-\U00011EF8'
        '\U00011FB0\U00011FC0-\U00011FF1\U00011FFF-\U00012399\U00012400-\U0001246E'
        '\U00012470-\U00012474\U00012480-\U00012543\U00012F90-\U00012FF2\U00013000-\U0001342E'
        '\U00014400-\U00014646\U00016800-\U00016A38\U00016A40-\U00016A5E\U00016A60-\U00016A69'
        '\U00016A6E-\U00016ABE\U00016AC0-\U00016AC9\U00016AD0-\U00016AED\U00016AF0-\U00016AF5'
        '\U00016B00-\U00016B45\U00016B50-\U00016B59\U00016B5B-\U00016B61\U00016B63-\U00016B77'
        '\U00016B7D-\U00016B8F\U00016E40-\U00016E9A\U00016F00-\U00016F4A\U00016F4F-\U00016F87'
        '\U00016F8F-\U00016F9F\U00016FE0-\U00016FE4\U00016FF0-\U00016FF1\U00017000-\U000187F7'
        '\U00018800-\U00018CD5\U00018D00-\U00018D08\U0001AFF0-\U0001AFF3\U0001AFF5-\U0001AFFB'
        '\U0001AFFD-\U0001AFFE\U0001B000-\U0001B122\U0001B150-\U0001B152\U0001B164-\U0001B167'
        '\U0001B170-\U0001B2FB\U0001BC00-\U0001BC6A\U0001BC70-\U0001BC7C\U0001BC80-\U0001BC88'
        '\U0001BC90-\U0001BC99\U0001BC9C-\U0001BC9F\U0001CF00-\U0001CF2D\U0001CF30-\U0001CF46'
        '\U0001CF50-\U0001CFC3\U0001D000-\U0001D0F5\U0001D100-\U0001D126\U0001D129-\U0001D172'
        '\U0001D17B-\U0001D1EA\U0001D200-\U0001D245\U0001D2E0-\U0001D2F3\U0001D300-\U0001D356'
        '\U0001D360-\U0001D378\U0001D400-\U0001D454\U0001D456-\U0001D49C\U0001D49E-\U0001D49F'
        '\U0001D4A2\U0001D4A5-\U0001D4A6\U0001D4A9-\U0001D4AC\U0001D4AE-\U0001D4B9\U0001D4BB'
        '\U0001D4BD-\U0001D4C3\U0001D4C5-\U0001D505\U0001D507-\U0001D50A\U0001D50D-\U0001D514'
        '\U0001D516-\U0001D51C\U0001D51E-\U0001D539\U0001D53B-\U0001D53E\U0001D540-\U0001D544'
        '\U0001D546\U0001D54A-\U0001D550\U0001D552-\U0001D6A5\U0001D6A8-\U0001D7CB'
        '\U0001D7CE-\U0001DA8B\U0001DA9B-\U0001DA9F\U0001DAA1-\U0001DAAF\U0001DF00-\U0001DF1E'
        '\U0001E000-\U0001E006\U0001E008-\U0001E018\U0001E01B-\U0001E021\U0001E023-\U0001E024'
        '\U0001E026-\U0001E02A\U0001E100-\U0001E12C\U0001E130-\U0001E13D\U0001E140-\U0001E149'
        '\U0001E14E-\U0001E14F\U0001E290-\U0001E2AE\U0001E2C0-\U0001E2F9\U0001E2FF'
        '\U0001E7E0-\U0001E7E6\U0001E7E8-\U0001E7EB\U0001E7ED-\U0001E7EE\U0001E7F0-\U0001E7FE'
        '\U0001E800-\U0001E8C4\U0001E8C7-\U0001E8D6\U0001E900-\U0001E94B\U0001E950-\U0001E959'
        '\U0001E95E-\U0001E95F\U0001EC71-\U0001ECB4\U0001ED01-\U0001ED3D\U0001EE00-\U0001EE03'
        '\U0001EE05-\U0001EE1F\U0001EE21-\U0001EE22\U0001EE24\U0001EE27\U0001EE29-\U0001EE32'
        '\U0001EE34-\U0001EE37\U0001EE39\U0001EE3B\U0001EE42\U0001EE47\U0001EE49\U0001EE4B'
        '\U0001EE4D-\U0001EE4F\U0001EE51-\U0001EE52\U0001EE54\U0001EE57\U0001EE59\U0001EE5B'
        '\U0001EE5D\U0001EE5F\U0001EE61-\U0001EE62\U0001EE64\U0001EE67-\U0001EE6A'
        '\U0001EE6C-\U0001EE72\U0001EE74-\U0001EE77\U0001EE79-\U0001EE7C\U0001EE7E'
        '\U0001EE80-\U0001EE89\U0001EE8B-\U0001EE9B\U0001EEA1-\U0001EEA3\U0001EEA5-\U0001EEA9'
        '\U0001EEAB-\U0001EEBB\U0001EEF0-\U0001EEF1\U0001F000-\U0001F02B\U0001F030-\U0001F093'
        '\U0001F0A0-\U0001F0AE\U0001F0B1-\U0001F0BF\U0001F0C1-\U0001F0CF\U0001F0D1-\U0001F0F5'
        '\U0001F100-\U0001F1AD\U0001F1E6-\U0001F202\U0001F210-\U0001F23B\U0001F240-\U0001F248'
        '\U0001F250-\U0001F251\U0001F260-\U0001F265\U0001F300-\U0001F6D7\U0001F6DD-\U0001F6EC'
        '\U0001F6F0-\U0001F6FC\U0001F700-\U0001F773\U0001F780-\U0001F7D8\U0001F7E0-\U0001F7EB'
        '\U0001F7F0\U0001F800-\U0001F80B\U0001F810-\U0001F847\U0001F850-\U0001F859'
        '\U0001F860-\U0001F887\U0001F890-\U0001F8AD\U0001F8B0-\U0001F8B1\U0001F900-\U0001FA53'
        '\U0001FA60-\U0001FA6D\U0001FA70-\U0001FA74\U0001FA78-\U0001FA7C\U0001FA80-\U0001FA86'
        '\U0001FA90-\U0001FAAC\U0001FAB0-\U0001FABA\U0001FAC0-\U0001FAC5\U0001FAD0-\U0001FAD9'
        '\U0001FAE0-\U0001FAE7\U0001FAF0-\U0001FAF6\U0001FB00-\U0001FB92\U0001FB94-\U0001FBCA'
        '\U0001FBF0-\U0001FBF9\U00020000-\U0002A6DF\U0002A700-\U0002B738\U0002B740-\U0002B81D'
        '\U0002B820-\U0002CEA1\U0002CEB0-\U0002EBE0\U0002F800-\U0002FA1D\U00030000-\U0003134A'
$$;


--
-- Name: apply_profile(text[], text, text, text, boolean, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.apply_profile(p_codes text[], p_user text, p_name text, p_key text, p_rename boolean, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_today record := screenmates.member_today(p_user);
    v_code text;
    v_count bigint := 0;
BEGIN
    IF p_rename AND EXISTS (
        SELECT 1 FROM screenmates.member m
        JOIN screenmates.member o ON o.code = m.code AND o.name_key = p_key AND o.user_id <> p_user
        WHERE m.user_id = p_user AND m.code = ANY (p_codes)
    ) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMNAM', MESSAGE = 'The display name is taken in the group.';
    END IF;
    FOR v_code IN
        UPDATE screenmates.member m SET
            display_name = CASE WHEN p_rename THEN p_name ELSE m.display_name END,
            name_key = CASE WHEN p_rename THEN p_key ELSE m.name_key END,
            blocks_today = v_today.blocks, day = v_today.day, streak = p_streak, last_active = p_last_active,
            last_updated = p_last_updated, version = greatest(m.version, p_version)
        WHERE m.user_id = p_user AND m.code = ANY (p_codes)
            AND (m.display_name, m.blocks_today, m.day, m.streak, m.last_active, m.last_updated, m.version)
                IS DISTINCT FROM (CASE WHEN p_rename THEN p_name ELSE m.display_name END, v_today.blocks, v_today.day,
                    p_streak, p_last_active, p_last_updated, greatest(m.version, p_version))
        RETURNING m.code
    LOOP
        PERFORM screenmates.touch(v_code);
        v_count := v_count + 1;
    END LOOP;
    RETURN v_count;
END $$;


--
-- Name: approve_claim(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.approve_claim(p_user text, p_role text, p_fingerprint text DEFAULT NULL::text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_hashes bytea[];
BEGIN
    SELECT coalesce(array_agg(c.secret_hash), '{}') INTO v_hashes FROM screenmates.identity_claim c
        WHERE c.user_id = p_user AND c.role_name = p_role
            AND (p_fingerprint IS NULL OR encode(substr(c.secret_hash, 1, 4), 'hex') = lower(p_fingerprint));
    IF cardinality(v_hashes) = 0 THEN
        RETURN 'no-claim';
    END IF;
    IF cardinality(v_hashes) > 1 THEN
        RETURN 'ambiguous';
    END IF;
    INSERT INTO screenmates.identity (user_id, role_name, secret_hash) VALUES (p_user, p_role, v_hashes[1]);
    DELETE FROM screenmates.legacy_user l WHERE l.user_id = p_user;
    RETURN 'approved';
END $$;


--
-- Name: block_sums_after(text, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.block_sums_after(p_code text, p_first bigint, p_last bigint, p_after bigint) RETURNS TABLE(user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $_$
#variable_conflict use_column
DECLARE
    v_users text[];
BEGIN
    IF p_after IS NOT NULL THEN
        -- Most looks follow a profile, not a day: the index on (code, seq) answers at once.
        SELECT array_agg(DISTINCT c.user_id) INTO v_users FROM screenmates.day_total c
            WHERE c.code = p_code AND c.seq > p_after AND c.date BETWEEN p_first AND p_last;
        IF v_users IS NULL THEN
            RETURN;
        END IF;
    END IF;
    RETURN QUERY
    WITH rows AS (
        SELECT d.*, (length(d.user_id) BETWEEN 1 AND 64 AND d.user_id ~ '^[A-Za-z0-9_-]+$'
            AND d.vice_blocks BETWEEN 0 AND 1440 AND d.goal_blocks BETWEEN 0 AND 96) AS accepted
        FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last
            AND (v_users IS NULL OR d.user_id = ANY (v_users))
    )
    SELECT r.user_id::text, least(sum(r.vice_blocks), 9007199254740992)::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint
        FROM rows r WHERE r.accepted GROUP BY r.user_id
    UNION ALL
    SELECT r.user_id::text, NULL::bigint, r.date, r.vice_blocks, r.goal_blocks, r.version
        FROM rows r WHERE NOT r.accepted;
END $_$;


--
-- Name: call_ms(bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.call_ms(p_now bigint) RETURNS bigint
    LANGUAGE sql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() AND screenmates.is_instant(p_now) THEN p_now
        ELSE screenmates.server_ms() END
$$;


--
-- Name: caller(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.caller(p_user text, p_secret text) RETURNS text
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $_$
DECLARE
    v_hash bytea;
    v_identity screenmates.identity%ROWTYPE;
BEGIN
    IF p_user IS NULL OR length(p_user) NOT BETWEEN 1 AND 64 OR p_user !~ '^[A-Za-z0-9_-]+$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMVAL',
            MESSAGE = 'A user id has 1–64 letters, digits, ''-'' or ''_''.';
    END IF;
    IF p_secret IS NULL OR length(p_secret) NOT BETWEEN 32 AND 128 OR p_secret !~ '^[0-9a-f]+$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMKEY',
            MESSAGE = 'A member''s secret is 32 to 128 hexadecimal digits (128 to 512 bits).';
    END IF;
    v_hash := sha256(convert_to(p_secret, 'UTF8'));
    FOR i IN 1..2 LOOP
        SELECT * INTO v_identity FROM screenmates.identity d WHERE d.user_id = p_user;
        IF FOUND THEN
            IF v_identity.role_name <> session_user OR v_identity.secret_hash <> v_hash THEN
                RAISE EXCEPTION USING ERRCODE = 'SMWHO',
                    MESSAGE = 'This user id belongs to another member (another login, or another secret).';
            END IF;
            RETURN p_user;
        END IF;
        IF EXISTS (SELECT 1 FROM screenmates.legacy_user l WHERE l.user_id = p_user) THEN
            IF NOT screenmates.caller_owns_store() THEN
                RAISE EXCEPTION USING ERRCODE = 'SMCLM',
                    MESSAGE = 'This user id is from before members had identities: its claim waits for the store''s owner.';
            END IF;
            DELETE FROM screenmates.legacy_user l WHERE l.user_id = p_user;
        ELSIF NOT screenmates.caller_owns_store() THEN
            PERFORM screenmates.lock_login();
            IF (SELECT count(*) FROM screenmates.identity d
                WHERE d.role_name = session_user AND d.bound_at > clock_timestamp() - interval '1 day')
                >= (screenmates.policy()).new_members_per_login_per_day
            THEN
                PERFORM screenmates.quota('This login has made as many new members today as the store allows; try again tomorrow.');
            END IF;
            IF (SELECT count(*) FROM screenmates.identity d WHERE d.role_name = session_user)
                >= (screenmates.policy()).members_per_login
            THEN
                PERFORM screenmates.quota('This login has as many members as the store allows; the store''s owner can allow more.');
            END IF;
        END IF;
        INSERT INTO screenmates.identity (user_id, role_name, secret_hash) VALUES (p_user, session_user, v_hash)
            ON CONFLICT DO NOTHING;
        IF FOUND THEN
            RETURN p_user;
        END IF;
        -- Bound by another call at the same moment: check against that binding.
    END LOOP;
    RAISE EXCEPTION USING ERRCODE = 'SMWHO', MESSAGE = 'This user id belongs to another member.';
END $_$;


--
-- Name: caller_owns_store(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.caller_owns_store() RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT coalesce((SELECT pg_has_role(session_user, n.nspowner, 'MEMBER')
        FROM pg_namespace n WHERE n.nspname = 'screenmates'), false)
$$;


--
-- Name: challenge_participants(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.challenge_participants(p_user text, p_secret text, p_code text) RETURNS TABLE(known boolean, challenge_id text, user_id text, display_name text, state text, days_kept bigint, joined_at bigint, decided_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint,
            NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, p.challenge_id::text, p.user_id::text, m.display_name, p.state::text, p.days_kept,
        p.joined_at, p.decided_at
        FROM screenmates.challenge_participant p
        JOIN screenmates.member m ON m.code = p.code AND m.user_id = p.user_id
        WHERE p.code = p_code ORDER BY p.challenge_id, p.joined_at, p.user_id;
END $$;


--
-- Name: challenge_participants_after(text, text, text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.challenge_participants_after(p_user text, p_secret text, p_code text, p_after bigint) RETURNS TABLE(known boolean, challenge_id text, user_id text, display_name text, state text, days_kept bigint, joined_at bigint, decided_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint,
            NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY
    WITH changed AS (
        SELECT c.id FROM screenmates.group_challenge c WHERE c.code = p_code AND c.seq > coalesce(p_after, -1)
        UNION
        SELECT q.challenge_id FROM screenmates.challenge_participant q
        WHERE q.code = p_code AND q.seq > coalesce(p_after, -1)
    )
    SELECT true, p.challenge_id::text, p.user_id::text, m.display_name, p.state::text, p.days_kept,
        p.joined_at, p.decided_at
        FROM screenmates.challenge_participant p
        JOIN screenmates.member m ON m.code = p.code AND m.user_id = p.user_id
        WHERE p.code = p_code AND p.challenge_id IN (SELECT id FROM changed)
        ORDER BY p.challenge_id, p.joined_at, p.user_id;
END $$;


--
-- Name: change_mark(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.change_mark(p_user text, p_secret text, p_code text) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text;
    v_mark bigint;
BEGIN
    -- The usual call: a member known by this login and this secret, asking about a group of
    -- theirs. What `caller` and `group_access` would let through, in one statement.
    SELECT v.change_seq INTO v_mark FROM screenmates.verified_marks(p_user, p_secret, p_code) v;
    IF FOUND THEN
        RETURN v_mark;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.change_seq FROM screenmates.group_info g WHERE g.code = p_code);
END $$;


--
-- Name: change_marks(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.change_marks(p_user text, p_secret text, p_code text) RETURNS TABLE(change_seq bigint, removed_seq bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text;
    v_mark bigint;
    v_removed bigint;
BEGIN
    -- The usual call in one statement (see change_mark).
    SELECT v.change_seq, v.removed_seq INTO v_mark, v_removed
        FROM screenmates.verified_marks(p_user, p_secret, p_code) v;
    IF FOUND THEN
        RETURN QUERY SELECT v_mark, v_removed;
        RETURN;
    END IF;
    v_user := screenmates.caller(p_user, p_secret);
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN;
    END IF;
    RETURN QUERY SELECT g.change_seq, g.removed_seq FROM screenmates.group_info g WHERE g.code = p_code;
END $$;


--
-- Name: change_settlement_rules(text, text, text, integer, bigint, bigint, text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.change_settlement_rules(p_user text, p_secret text, p_code text, p_week_start integer, p_kept bigint, p_over bigint, p_missing text, p_now bigint) RETURNS TABLE(outcome text, from_day bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_from bigint;
    v_before record;
BEGIN
    PERFORM screenmates.check_settlement_rules(p_week_start, p_kept, p_over, p_missing);
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code AND g.week_start <> p_week_start)
        AND EXISTS (SELECT 1 FROM screenmates.week_result r WHERE r.code = p_code)
    THEN
        RETURN QUERY SELECT 'week-fixed'::text, NULL::bigint;
        RETURN;
    END IF;
    UPDATE screenmates.group_info g SET week_start = p_week_start WHERE g.code = p_code AND g.week_start <> p_week_start;
    IF (SELECT count(*) FROM screenmates.member m WHERE m.code = p_code) = 1 THEN
        UPDATE screenmates.group_info g SET kept_day_coins = p_kept, over_day_coins = p_over, missing_days = p_missing
            WHERE g.code = p_code;
        DELETE FROM screenmates.rules_change c WHERE c.code = p_code;
        PERFORM screenmates.touch(p_code);
        RETURN QUERY SELECT 'set'::text, NULL::bigint;
        RETURN;
    END IF;
    v_from := screenmates.week_first_day(floor((v_at + 50400000)::numeric / 86400000)::bigint, p_week_start) + 7;
    DELETE FROM screenmates.rules_change c WHERE c.code = p_code AND c.from_day >= v_from;
    SELECT coalesce(c.kept_day_coins, g.kept_day_coins) AS kept, coalesce(c.over_day_coins, g.over_day_coins) AS over,
        coalesce(c.missing_days, g.missing_days) AS missing
        INTO v_before
        FROM screenmates.group_info g
        LEFT JOIN LATERAL (
            SELECT * FROM screenmates.rules_change c WHERE c.code = g.code ORDER BY c.from_day DESC LIMIT 1
        ) c ON true
        WHERE g.code = p_code;
    IF (v_before.kept, v_before.over, v_before.missing) IS DISTINCT FROM (p_kept, p_over, p_missing) THEN
        INSERT INTO screenmates.rules_change (code, from_day, kept_day_coins, over_day_coins, missing_days)
            VALUES (p_code, v_from, p_kept, p_over, p_missing);
    END IF;
    PERFORM screenmates.touch(p_code);
    RETURN QUERY SELECT 'set'::text, v_from;
END $$;


--
-- Name: check_challenge(text, text, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_challenge(p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint, p_penalty bigint, p_starts_at bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $_$
BEGIN
    IF p_id IS NULL OR p_id !~ '^[a-z0-9]{4,16}$' THEN
        PERFORM screenmates.refuse('A challenge id has 4–16 lower-case letters and digits.');
    END IF;
    PERFORM screenmates.check_rule(p_rule);
    IF p_days IS NULL OR p_days NOT BETWEEN 1 AND 365 THEN
        PERFORM screenmates.refuse('A challenge lasts 1 to 365 days.');
    END IF;
    IF p_reward IS NULL OR p_penalty IS NULL OR p_reward NOT BETWEEN 0 AND 10000 OR p_penalty NOT BETWEEN 0 AND 10000 THEN
        PERFORM screenmates.refuse('A reward or penalty is 0 to 10000 coins.');
    END IF;
    IF p_first_day IS NULL OR p_first_day NOT BETWEEN -719162 AND 2932896 - 365
        OR p_first_day < screenmates.first_possible_today() OR p_first_day > screenmates.last_possible_today() + 366
    THEN
        PERFORM screenmates.refuse('A challenge begins today or within a year.');
    END IF;
    IF p_starts_at IS NOT NULL AND NOT screenmates.is_instant(p_starts_at) THEN
        PERFORM screenmates.refuse('A challenge''s start must be a real instant.');
    END IF;
END $_$;


--
-- Name: check_machine(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_machine(p_machine text, p_name text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $_$
BEGIN
    IF p_machine IS NULL OR (p_machine <> 'first' AND (length(p_machine) <> 32 OR p_machine !~ '^[0-9a-f]+$')) THEN
        PERFORM screenmates.refuse('A machine''s id is 32 lowercase hexadecimal digits.');
    END IF;
    IF p_name IS NOT NULL AND (length(p_name) NOT BETWEEN 1 AND 32 OR p_name !~ '^[A-Za-z0-9._-]+$') THEN
        PERFORM screenmates.refuse('A machine''s name is 1–32 of the letters A-Z and a-z, digits, ''.'', ''_'' and ''-''.');
    END IF;
END $_$;


--
-- Name: check_profile(bigint, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_profile(p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint DEFAULT NULL::bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
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
END $$;


--
-- Name: check_rule(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_rule(p_rule text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_rule jsonb;
    v_body jsonb;
    v_from integer;
    v_until integer;
    v_ok boolean := false;
BEGIN
    IF p_rule IS NULL OR octet_length(p_rule) NOT BETWEEN 1 AND 2000 THEN
        PERFORM screenmates.refuse('A challenge''s rule is missing or too long to share.');
    END IF;
    BEGIN
        v_rule := p_rule::jsonb;
        IF NOT screenmates.json_keys_unique(p_rule::json) THEN
            v_rule := NULL;
        END IF;
    EXCEPTION WHEN others THEN
        PERFORM screenmates.refuse('A challenge''s rule is not one ScreenMates writes.');
    END;
    IF screenmates.json_keys(v_rule) = ARRAY['streak'] THEN
        v_ok := v_rule -> 'streak' = '{}'::jsonb;
    ELSIF screenmates.json_keys(v_rule) = ARRAY['dailyBlocks'] THEN
        v_body := v_rule -> 'dailyBlocks';
        v_ok := screenmates.json_keys(v_body) = ARRAY['max', 'target']
            AND screenmates.json_count(v_body -> 'max', 96) IS NOT NULL
            AND screenmates.check_target(v_body -> 'target');
    ELSIF screenmates.json_keys(v_rule) = ARRAY['quietHours'] THEN
        v_body := v_rule -> 'quietHours';
        IF screenmates.json_keys(v_body) = ARRAY['from', 'target', 'until']
            AND screenmates.json_keys(v_body -> 'from') = ARRAY['minutes']
            AND screenmates.json_keys(v_body -> 'until') = ARRAY['minutes']
        THEN
            v_from := screenmates.json_count(v_body -> 'from' -> 'minutes', 1439);
            v_until := screenmates.json_count(v_body -> 'until' -> 'minutes', 1439);
            v_ok := v_from IS NOT NULL AND v_until IS NOT NULL AND v_from <> v_until
                AND screenmates.check_target(v_body -> 'target');
        END IF;
    END IF;
    IF NOT coalesce(v_ok, false) THEN
        PERFORM screenmates.refuse('A challenge''s rule is not one ScreenMates can judge.');
    END IF;
END $$;


--
-- Name: check_settlement_rules(integer, bigint, bigint, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_settlement_rules(p_week_start integer, p_kept bigint, p_over bigint, p_missing text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    IF p_week_start IS NULL OR p_week_start NOT BETWEEN 1 AND 7 OR p_kept IS NULL OR p_kept NOT BETWEEN 0 AND 1000
        OR p_over IS NULL OR p_over NOT BETWEEN 0 AND 1000 OR p_missing IS NULL
        OR p_missing NOT IN ('pending', 'worst-case')
    THEN
        PERFORM screenmates.refuse('Settlement rules: a week start 1–7, 0–1000 coins a day, pending or worst-case.');
    END IF;
END $$;


--
-- Name: check_target(jsonb); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_target(p_target jsonb) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_app text;
BEGIN
    IF p_target = '{"allVice": {}}'::jsonb THEN
        RETURN true;
    END IF;
    IF screenmates.json_keys(p_target) IS DISTINCT FROM ARRAY['app']
        OR screenmates.json_keys(p_target -> 'app') IS DISTINCT FROM ARRAY['_0']
        OR jsonb_typeof(p_target -> 'app' -> '_0') <> 'string'
    THEN
        RETURN false;
    END IF;
    v_app := p_target -> 'app' ->> '_0';
    RETURN screenmates.is_app_id(v_app);
END $$;


--
-- Name: check_today(bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_today(p_day bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_today bigint;
BEGIN
    IF p_day IS NULL OR p_day NOT BETWEEN -719162 AND 2932896 THEN
        PERFORM screenmates.refuse('A date is in the years 1 to 9999.');
    END IF;
    IF NOT screenmates.members_choose_clock() THEN
        v_today := floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint;
        IF p_day NOT BETWEEN v_today - 2 AND v_today + 1 THEN
            PERFORM screenmates.refuse(
                'That day is not today anywhere by the group store''s clock; check this machine''s clock.');
        END IF;
    END IF;
END $$;


--
-- Name: check_user_id(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_user_id(p_user text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $_$
BEGIN
    IF p_user IS NULL OR p_user !~ '^[A-Za-z0-9_-]{1,64}$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMVAL',
            MESSAGE = 'A user id has 1–64 letters, digits, ''-'' or ''_''.';
    END IF;
END $_$;


--
-- Name: check_version(bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.check_version(p_version bigint) RETURNS void
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    IF p_version IS NULL OR p_version NOT BETWEEN 1 AND 9007199254740992 THEN
        PERFORM screenmates.refuse('A version is 1 to 2^53.');
    END IF;
END $$;


--
-- Name: claim_identity(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.claim_identity(p_user text, p_secret text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $_$
DECLARE
    v_hash bytea;
BEGIN
    PERFORM screenmates.check_user_id(p_user);
    IF p_secret IS NULL OR p_secret !~ '^[0-9a-f]{32,128}$' THEN
        RAISE EXCEPTION USING ERRCODE = 'SMKEY',
            MESSAGE = 'A member''s secret is 32 to 128 hexadecimal digits (128 to 512 bits).';
    END IF;
    v_hash := sha256(convert_to(p_secret, 'UTF8'));
    IF NOT EXISTS (SELECT 1 FROM screenmates.legacy_user l WHERE l.user_id = p_user) THEN
        PERFORM screenmates.caller(p_user, p_secret);
        RETURN 'bound';
    END IF;
    IF screenmates.caller_owns_store() THEN
        PERFORM screenmates.caller(p_user, p_secret);
        RETURN 'bound';
    END IF;
    PERFORM screenmates.lock_login();
    IF EXISTS (SELECT 1 FROM screenmates.identity_claim c
        WHERE c.user_id = p_user AND c.role_name = session_user AND c.secret_hash = v_hash)
    THEN
        RETURN 'waiting';
    END IF;
    IF (SELECT count(*) FROM screenmates.identity_claim c WHERE c.role_name = session_user)
        >= (screenmates.policy()).claims_per_login
    THEN
        PERFORM screenmates.quota('This login has as many claims waiting as the store allows; the store''s owner must decide first.');
    END IF;
    IF (SELECT count(*) FROM screenmates.identity_claim c WHERE c.user_id = p_user) >= 20 THEN
        PERFORM screenmates.quota('This user id has 20 claims waiting; the store''s owner must decide first.');
    END IF;
    INSERT INTO screenmates.identity_claim (user_id, role_name, secret_hash) VALUES (p_user, session_user, v_hash)
        ON CONFLICT DO NOTHING;
    RETURN 'waiting';
END $_$;


--
-- Name: create_group(text, text, bigint, text, bigint, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.create_group(p_user text, p_secret text, p_goal bigint, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint) RETURNS TABLE(code text, created_at bigint)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
    SELECT * FROM screenmates.create_group_on(p_user, p_secret, 'first', p_goal, p_name, p_blocks, p_day, p_streak,
        p_last_active, p_last_updated, p_version, p_now)
$$;


--
-- Name: create_group_challenge(text, text, text, text, text, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.create_group_challenge(p_user text, p_secret text, p_code text, p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint, p_penalty bigint, p_starts_at bigint, p_now bigint) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $_$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
BEGIN
    IF p_id IS NULL OR p_id !~ '^[a-z0-9]{4,16}$' THEN
        PERFORM screenmates.refuse('A challenge id has 4–16 lower-case letters and digits.');
    END IF;
    PERFORM screenmates.check_rule(p_rule);
    IF p_days IS NULL OR p_days NOT BETWEEN 1 AND 365 THEN
        PERFORM screenmates.refuse('A challenge lasts 1 to 365 days.');
    END IF;
    IF p_reward IS NULL OR p_penalty IS NULL OR p_reward NOT BETWEEN 0 AND 10000 OR p_penalty NOT BETWEEN 0 AND 10000 THEN
        PERFORM screenmates.refuse('A reward or penalty is 0 to 10000 coins.');
    END IF;
    IF p_first_day IS NULL OR p_first_day NOT BETWEEN -719162 AND 2932896 - 365
        OR p_first_day < screenmates.first_possible_today() OR p_first_day > screenmates.last_possible_today() + 366
    THEN
        PERFORM screenmates.refuse('A challenge begins today or within a year.');
    END IF;
    IF p_starts_at IS NOT NULL AND NOT screenmates.is_instant(p_starts_at) THEN
        PERFORM screenmates.refuse('A challenge''s start must be a real instant.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN 'unknown';
    END IF;
    IF (SELECT count(*) FROM screenmates.group_challenge c
        WHERE c.code = p_code AND c.first_day + c.days > screenmates.day_of(v_at))
        >= (screenmates.policy()).running_challenges_per_group
    THEN
        PERFORM screenmates.quota('The group has as many challenges running as the store allows; let one end first.');
    END IF;
    IF (SELECT count(*) FROM screenmates.group_challenge c
        WHERE c.code = p_code AND c.first_day + c.days > screenmates.retained_from(screenmates.day_of(v_at)))
        >= (screenmates.policy()).challenges_per_group
    THEN
        PERFORM screenmates.quota('The group holds as many challenges as the store allows; ended ones go after a month or two.');
    END IF;
    IF (SELECT count(*) FROM screenmates.challenge_participant p
        JOIN screenmates.group_challenge c ON c.code = p.code AND c.id = p.challenge_id
        WHERE p.code = p_code AND p.user_id = v_user
            AND c.first_day + c.days > screenmates.retained_from(screenmates.day_of(v_at)))
        >= (screenmates.policy()).challenges_joined_per_member
    THEN
        PERFORM screenmates.quota('You are in as many of the group''s challenges as the store allows; let one end first.');
    END IF;
    IF (SELECT count(*) FROM screenmates.group_challenge c
        WHERE c.code = p_code AND c.creator_id = v_user AND c.created_on > clock_timestamp() - interval '1 day')
        >= (screenmates.policy()).challenges_shared_per_day
    THEN
        PERFORM screenmates.quota('You have shared as many challenges today as the store allows; try again tomorrow.');
    END IF;
    INSERT INTO screenmates.group_challenge (
        code, id, creator_id, rule, first_day, days, reward, penalty, starts_at, created_at)
    VALUES (p_code, p_id, v_user, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at, v_at)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'exists';
    END IF;
    INSERT INTO screenmates.challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
        VALUES (p_code, p_id, v_user, 'in', 0, v_at);
    PERFORM screenmates.touch(p_code);
    RETURN 'created';
END $_$;


--
-- Name: create_group_on(text, text, text, bigint, text, bigint, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.create_group_on(p_user text, p_secret text, p_machine text, p_goal bigint, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint) RETURNS TABLE(code text, created_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_key text := screenmates.name_key(p_name);
    v_at bigint := screenmates.call_ms(p_now);
    v_alphabet constant text := '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
    v_bytes bytea;
    v_code text;
    v_today record;
BEGIN
    IF p_goal IS NULL OR p_goal NOT BETWEEN 1 AND 96 THEN
        PERFORM screenmates.refuse('A group''s daily goal is 1–96 blocks.');
    END IF;
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version);
    PERFORM screenmates.check_machine(p_machine, NULL);
    IF (SELECT count(*) FROM screenmates.group_info g
        WHERE g.created_by = v_user AND g.created_on > clock_timestamp() - interval '1 day')
        >= (screenmates.policy()).groups_created_per_day
    THEN
        PERFORM screenmates.quota('You have created as many groups today as the store allows; join one or try again tomorrow.');
    END IF;
    IF NOT screenmates.caller_owns_store() THEN
        PERFORM screenmates.lock_login();
        IF (SELECT count(*) FROM screenmates.group_info g JOIN screenmates.identity d ON d.user_id = g.created_by
            WHERE d.role_name = session_user AND g.created_on > clock_timestamp() - interval '1 day')
            >= (screenmates.policy()).groups_created_per_login_per_day
        THEN
            PERFORM screenmates.quota('This login has created as many groups today as the store allows; try again tomorrow.');
        END IF;
    END IF;
    IF (SELECT count(*) FROM screenmates.member m WHERE m.user_id = v_user) >= (screenmates.policy()).groups_per_member THEN
        PERFORM screenmates.quota('You are in as many groups as the store allows; leave one first.');
    END IF;
    -- The code is drawn here, from the server's strong random source: a client cannot choose
    -- one, nor learn from a refused one which codes exist.
    LOOP
        v_bytes := uuid_send(gen_random_uuid());
        v_code := '';
        FOR i IN 0..5 LOOP
            v_code := v_code || substr(v_alphabet, get_byte(v_bytes, i) % 32 + 1, 1);
        END LOOP;
        INSERT INTO screenmates.group_info (code, daily_goal_blocks, created_at, created_by)
            VALUES (v_code, p_goal, v_at, v_user) ON CONFLICT DO NOTHING;
        EXIT WHEN FOUND;
    END LOOP;
    PERFORM screenmates.machine_profile(v_user, p_machine, p_name, p_blocks, p_day, p_streak, p_version, NULL);
    v_today := screenmates.member_today(v_user);
    INSERT INTO screenmates.member (
        code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
        version, joined_at)
    VALUES (v_code, v_user, p_name, v_key, coalesce(v_today.blocks, p_blocks), coalesce(v_today.day, p_day), p_streak,
        p_last_active, p_last_updated, p_version, v_at);
    INSERT INTO screenmates.last_group (user_id, code) VALUES (v_user, v_code)
        ON CONFLICT (user_id) DO UPDATE SET code = excluded.code;
    RETURN QUERY SELECT v_code, v_at;
END $$;


--
-- Name: day_of(bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.day_of(p_ms bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT floor(p_ms / 86400000.0)::bigint
$$;


--
-- Name: delete_account(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.delete_account(p_user text, p_secret text) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_codes text[];
    v_code text;
BEGIN
    SELECT coalesce(array_agg(g.code ORDER BY g.code), '{}') INTO v_codes FROM screenmates.group_info g
        WHERE g.code IN (SELECT m.code FROM screenmates.member m WHERE m.user_id = v_user);
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = ANY (v_codes) ORDER BY g.code FOR UPDATE;
    DELETE FROM screenmates.member m WHERE m.user_id = v_user;
    FOREACH v_code IN ARRAY v_codes LOOP
        PERFORM screenmates.touch(v_code);
        PERFORM screenmates.drop_if_empty(v_code);
    END LOOP;
    UPDATE screenmates.group_challenge c SET creator_id = '-' WHERE c.creator_id = v_user;
    UPDATE screenmates.group_info g SET created_by = NULL WHERE g.created_by = v_user;
    DELETE FROM screenmates.machine c WHERE c.user_id = v_user;
    DELETE FROM screenmates.coin_standing s WHERE s.user_id = v_user;
    DELETE FROM screenmates.last_group l WHERE l.user_id = v_user;
    DELETE FROM screenmates.failed_attempt f WHERE f.user_id = v_user;
    DELETE FROM screenmates.identity d WHERE d.user_id = v_user;
    RETURN cardinality(v_codes);
END $$;


--
-- Name: drop_if_empty(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.drop_if_empty(p_code text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code) THEN
        DELETE FROM screenmates.group_challenge c WHERE c.code = p_code;
        DELETE FROM screenmates.group_info g WHERE g.code = p_code;
    END IF;
END $$;


--
-- Name: find_group(text, text, text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.find_group(p_user text, p_secret text, p_code text, p_now bigint) RETURNS TABLE(outcome text, retry_after bigint, daily_goal_blocks bigint, member_count bigint, created_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_wait bigint;
BEGIN
    v_wait := screenmates.retry_after(v_user, v_at);
    IF v_wait IS NOT NULL THEN
        RETURN QUERY SELECT 'limited'::text, v_wait, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT 'found'::text, NULL::bigint, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member m WHERE m.code = g.code), g.created_at
        FROM screenmates.group_info g WHERE g.code = p_code;
    IF NOT FOUND THEN
        PERFORM screenmates.record_failed_attempt(v_user, v_at);
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
    END IF;
END $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: machine; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.machine (
    user_id text NOT NULL COLLATE pg_catalog."C",
    machine_id text NOT NULL COLLATE pg_catalog."C",
    name text NOT NULL COLLATE pg_catalog."C",
    added_at bigint NOT NULL,
    last_seen bigint NOT NULL,
    retired_at bigint,
    adopted_first boolean DEFAULT false NOT NULL,
    blocks_today bigint DEFAULT 0 NOT NULL,
    productive_today bigint,
    day bigint,
    streak bigint,
    version bigint DEFAULT 0 NOT NULL,
    sent_name text,
    CONSTRAINT machine_blocks_today_check CHECK (((blocks_today >= 0) AND (blocks_today <= 1440))),
    CONSTRAINT machine_day_check CHECK (((day >= '-719162'::integer) AND (day <= 2932896))),
    CONSTRAINT machine_machine_id_check CHECK (((machine_id = 'first'::text) OR (machine_id ~ '^[0-9a-f]{32}$'::text))),
    CONSTRAINT machine_name_check CHECK ((((char_length(name) >= 1) AND (char_length(name) <= 32)) AND (name ~ '^[A-Za-z0-9._-]+$'::text))),
    CONSTRAINT machine_productive_today_check CHECK (((productive_today >= 0) AND (productive_today <= 1440))),
    CONSTRAINT machine_streak_check CHECK (((streak >= 0) AND (streak <= 36525))),
    CONSTRAINT machine_user_id_check CHECK ((user_id ~ '^[A-Za-z0-9_-]{1,64}$'::text)),
    CONSTRAINT machine_version_check CHECK (((version >= 0) AND (version <= '9007199254740992'::bigint)))
);


--
-- Name: COLUMN machine.productive_today; Type: COMMENT; Schema: screenmates; Owner: -
--

COMMENT ON COLUMN screenmates.machine.productive_today IS 'The productive blocks the machine said of its day last; NULL when it said none. Read by its member only.';


--
-- Name: first_machine(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.first_machine(p_user text) RETURNS screenmates.machine
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_machine screenmates.machine%ROWTYPE;
    v_now bigint := screenmates.server_ms();
    v_name text := 'first';
    v_number int := 1;
BEGIN
    SELECT * INTO v_machine FROM screenmates.machine m WHERE m.user_id = p_user AND m.machine_id = 'first' FOR UPDATE;
    IF FOUND AND v_machine.retired_at IS NOT NULL THEN
        PERFORM screenmates.refuse('This machine was removed from your machines (screenmates devices): it sends nothing more.');
    END IF;
    IF FOUND THEN
        IF v_machine.last_seen < v_now - 60000 THEN
            UPDATE screenmates.machine m SET last_seen = v_now WHERE m.user_id = p_user AND m.machine_id = 'first'
                RETURNING * INTO v_machine;
        END IF;
        RETURN v_machine;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.machine m WHERE m.user_id = p_user AND m.adopted_first) THEN
        PERFORM screenmates.refuse('ScreenMates on this machine is older than on your other machines: update it here. '
            || 'Its usage reaches your group again once it is updated.');
    END IF;
    PERFORM 1 FROM screenmates.identity d WHERE d.user_id = p_user FOR UPDATE;
    PERFORM screenmates.machine_quota(p_user);
    WHILE EXISTS (SELECT 1 FROM screenmates.machine m
        WHERE m.user_id = p_user AND m.retired_at IS NULL AND lower(m.name) = lower(v_name))
    LOOP
        v_number := v_number + 1;
        v_name := 'first-' || v_number;
    END LOOP;
    INSERT INTO screenmates.machine (user_id, machine_id, name, added_at, last_seen)
        VALUES (p_user, 'first', v_name, v_now, v_now)
        RETURNING * INTO v_machine;
    RETURN v_machine;
END $$;


--
-- Name: first_possible_today(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.first_possible_today() RETURNS bigint
    LANGUAGE sql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() THEN NULL
        ELSE floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint - 2 END
$$;


--
-- Name: games_marks(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.games_marks(p_user text, p_secret text, p_code text) RETURNS TABLE(change_seq bigint, removed_seq bigint, games_seq bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
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
END $$;


--
-- Name: group_access(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_access(p_user text, p_code text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_now bigint := screenmates.server_ms();
    v_wait bigint;
BEGIN
    IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = p_user) THEN
        RETURN true;
    END IF;
    v_wait := screenmates.retry_after(p_user, v_now);
    IF v_wait IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SMLIM', MESSAGE = 'Too many wrong group codes.', DETAIL = v_wait::text;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMNOT', MESSAGE = 'Not a member of the group.', DETAIL = p_code;
    END IF;
    PERFORM screenmates.record_failed_attempt(p_user, v_now);
    RETURN false;
END $$;


--
-- Name: group_block_sums(text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_block_sums(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint) RETURNS TABLE(known boolean, user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $_$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY
    WITH rows AS (
        SELECT d.*, (d.user_id ~ '^[A-Za-z0-9_-]{1,64}$' AND d.vice_blocks BETWEEN 0 AND 1440
            AND d.goal_blocks BETWEEN 0 AND 96) AS accepted
        FROM screenmates.day_total d WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last
    )
    SELECT true, r.user_id::text, least(sum(r.vice_blocks), 9007199254740992)::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint
        FROM rows r WHERE r.accepted GROUP BY r.user_id
    UNION ALL
    SELECT true, r.user_id::text, NULL::bigint, r.date, r.vice_blocks, r.goal_blocks, r.version
        FROM rows r WHERE NOT r.accepted;
END $_$;


--
-- Name: group_block_sums_after(text, text, text, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_block_sums_after(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint, p_after bigint) RETURNS TABLE(known boolean, user_id text, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, s.user_id, s.blocks, s.date, s.vice_blocks, s.goal_blocks, s.version
        FROM screenmates.block_sums_after(p_code, p_first, p_last, p_after) s;
END $$;


--
-- Name: group_challenges(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_challenges(p_user text, p_secret text, p_code text) RETURNS TABLE(known boolean, id text, creator_id text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint, starts_at bigint, created_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, c.id::text, c.creator_id::text, c.rule, c.first_day, c.days, c.reward, c.penalty,
        c.starts_at, c.created_at
        FROM screenmates.group_challenge c WHERE c.code = p_code ORDER BY c.created_at DESC, c.id;
END $$;


--
-- Name: group_challenges_after(text, text, text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_challenges_after(p_user text, p_secret text, p_code text, p_after bigint) RETURNS TABLE(known boolean, id text, creator_id text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint, starts_at bigint, created_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, c.id::text, c.creator_id::text, c.rule, c.first_day, c.days, c.reward, c.penalty,
        c.starts_at, c.created_at
        FROM screenmates.group_challenge c
        WHERE c.code = p_code AND (c.seq > coalesce(p_after, -1) OR c.id IN (
            SELECT p.challenge_id FROM screenmates.challenge_participant p
            WHERE p.code = p_code AND p.seq > coalesce(p_after, -1)))
        ORDER BY c.created_at DESC, c.id;
END $$;


--
-- Name: group_changes_after(text, text, text, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_changes_after(p_user text, p_secret text, p_code text, p_after bigint, p_week_first bigint, p_week_last bigint, p_month_first bigint, p_month_last bigint) RETURNS TABLE(kind text, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint, last_active bigint, last_updated bigint, version bigint, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY SELECT * FROM screenmates.group_changes_and_games_after(
        p_user, p_secret, p_code, p_after, p_week_first, p_week_last, p_month_first, p_month_last) r
        WHERE r.kind <> 'games';
END $$;


--
-- Name: group_changes_and_games_after(text, text, text, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_changes_and_games_after(p_user text, p_secret text, p_code text, p_after bigint, p_week_first bigint, p_week_last bigint, p_month_first bigint, p_month_last bigint) RETURNS TABLE(kind text, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint, last_active bigint, last_updated bigint, version bigint, blocks bigint, date bigint, vice_blocks bigint, goal_blocks bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $_$
#variable_conflict use_column
DECLARE
    v_user text;
    v_mark bigint;
    v_removed bigint;
    v_games bigint;
    v_first bigint;
    v_last bigint;
    v_users text[];
BEGIN
    IF p_after IS NULL THEN
        PERFORM screenmates.refuse('A reader catching up names the change number it has seen.');
    END IF;
    -- The usual call, in one statement (see change_mark); anything else takes the full path.
    SELECT v.change_seq, v.removed_seq, g.games_seq INTO v_mark, v_removed, v_games
        FROM screenmates.verified_marks(p_user, p_secret, p_code) v
        JOIN screenmates.group_info g ON g.code = p_code;
    IF NOT FOUND THEN
        v_user := screenmates.caller(p_user, p_secret);
        IF NOT screenmates.group_access(v_user, p_code) THEN
            RETURN;
        END IF;
        SELECT g.change_seq, g.removed_seq, g.games_seq INTO v_mark, v_removed, v_games
            FROM screenmates.group_info g WHERE g.code = p_code;
    END IF;
    RETURN QUERY SELECT 'marks'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint, v_removed, v_mark, NULL::bigint, NULL::bigint, NULL::bigint;
    -- What changed after p_after (nothing when nothing did, or when a row was taken away since: the
    -- reader then reads the group whole).
    IF NOT (v_removed > p_after OR p_after > v_mark OR p_after = v_mark) THEN
        RETURN QUERY SELECT 'member'::text, m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak,
            m.last_active, m.last_updated, m.version, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint
            FROM screenmates.member m WHERE m.code = p_code AND m.seq > p_after ORDER BY m.joined_at, m.user_id;
        -- The week's and the month's sums of the members with a day total changed among their
        -- days (most changes are a profile: none).
        IF p_week_first IS NULL OR p_week_last IS NULL THEN
            p_week_first := NULL;
            p_week_last := NULL;
        END IF;
        IF p_month_first IS NULL OR p_month_last IS NULL THEN
            p_month_first := NULL;
            p_month_last := NULL;
        END IF;
        v_first := least(p_week_first, p_month_first);
        v_last := greatest(p_week_last, p_month_last);
        IF v_first IS NOT NULL THEN
            -- (`date + 0`: the days are a filter, not an index's range. A generic plan takes any
            -- range for a narrow one and would read every day of the group from the primary key.)
            SELECT array_agg(DISTINCT c.user_id) INTO v_users FROM screenmates.day_total c
                WHERE c.code = p_code AND c.seq > p_after AND c.date + 0 BETWEEN v_first AND v_last;
        END IF;
        IF v_users IS NOT NULL THEN
            RETURN QUERY
            WITH rows AS (
                SELECT d.user_id AS who, d.date AS on_day, d.vice_blocks AS vice, d.goal_blocks AS goal,
                    d.version AS stamp,
                    (length(d.user_id) BETWEEN 1 AND 64 AND d.user_id ~ '^[A-Za-z0-9_-]+$'
                        AND d.vice_blocks BETWEEN 0 AND 1440 AND d.goal_blocks BETWEEN 0 AND 96) AS accepted,
                    coalesce(d.date BETWEEN p_week_first AND p_week_last, false) AS in_week,
                    coalesce(d.date BETWEEN p_month_first AND p_month_last, false) AS in_month
                FROM screenmates.day_total d
                WHERE d.code = p_code AND d.user_id = ANY (v_users) AND d.date + 0 BETWEEN v_first AND v_last
            ),
            periods AS (
                SELECT 'week'::text AS period, r.* FROM rows r WHERE r.in_week
                UNION ALL
                SELECT 'month'::text, r.* FROM rows r WHERE r.in_month
            )
            SELECT p.period, p.who::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint,
                NULL::bigint, NULL::bigint, least(sum(p.vice), 9007199254740992)::bigint, NULL::bigint,
                NULL::bigint, NULL::bigint
                FROM periods p WHERE p.accepted GROUP BY p.period, p.who
            UNION ALL
            SELECT p.period, p.who::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint,
                NULL::bigint, p.stamp, NULL::bigint, p.on_day, p.vice, p.goal
                FROM periods p WHERE NOT p.accepted;
        END IF;
    END IF;
    RETURN QUERY SELECT 'games'::text, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
        NULL::bigint, NULL::bigint, NULL::bigint, v_games, NULL::bigint, NULL::bigint, NULL::bigint;
END $_$;


--
-- Name: group_channel(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_channel(p_user text, p_secret text, p_code text) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN NULL;
    END IF;
    RETURN (SELECT g.channel FROM screenmates.group_info g WHERE g.code = p_code);
END $$;


--
-- Name: group_day_totals(text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_day_totals(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint) RETURNS TABLE(known boolean, user_id text, date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, d.user_id::text, d.date, d.vice_blocks, d.goal_blocks, d.version
        FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date BETWEEN p_first AND p_last ORDER BY d.date, d.user_id;
END $$;


--
-- Name: group_members(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_members(p_user text, p_secret text, p_code text) RETURNS TABLE(known boolean, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint, last_active bigint, last_updated bigint, version bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak, m.last_active,
        m.last_updated, m.version
        FROM screenmates.member m WHERE m.code = p_code ORDER BY m.joined_at, m.user_id;
END $$;


--
-- Name: group_members_after(text, text, text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.group_members_after(p_user text, p_secret text, p_code text, p_after bigint) RETURNS TABLE(known boolean, user_id text, display_name text, blocks_today bigint, day bigint, streak bigint, last_active bigint, last_updated bigint, version bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, m.* FROM screenmates.members_after(p_code, p_after) m;
END $$;


--
-- Name: is_app_id(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.is_app_id(p_app text) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $_$
BEGIN
    RETURN coalesce(char_length(p_app) BETWEEN 1 AND 64
        AND p_app ~ ('^[' || screenmates.app_id_scalars() || ']+$'), false);
END $_$;


--
-- Name: is_instant(bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.is_instant(p_ms bigint) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT p_ms IS NOT NULL AND p_ms BETWEEN -2999999999999999 AND 2999999999999999
$$;


--
-- Name: is_name(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.is_name(p_name text) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $_$
BEGIN
    RETURN coalesce(char_length(p_name) BETWEEN 1 AND 60
        AND p_name ~ ('^[' || screenmates.name_letters() || '][' || screenmates.name_letters()
            || screenmates.name_marks() || ']*$')
        AND char_length(regexp_replace(p_name, '[' || screenmates.name_marks() || ']', '', 'g')) <= 20
        AND p_name IS NFC NORMALIZED AND p_name IS NFKC NORMALIZED, false);
END $_$;


--
-- Name: join_group(text, text, text, text, bigint, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.join_group(p_user text, p_secret text, p_code text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint) RETURNS TABLE(outcome text, retry_after bigint, daily_goal_blocks bigint, member_count bigint, created_at bigint)
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
    SELECT * FROM screenmates.join_group_on(p_user, p_secret, 'first', p_code, p_name, p_blocks, p_day, p_streak,
        p_last_active, p_last_updated, p_version, p_now)
$$;


--
-- Name: join_group_challenge(text, text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.join_group_challenge(p_user text, p_secret text, p_code text, p_id text, p_today bigint, p_now bigint) RETURNS TABLE(outcome text, creator_id text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint, starts_at bigint, created_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_challenge screenmates.group_challenge%ROWTYPE;
    v_outcome text := 'joined';
BEGIN
    PERFORM screenmates.check_today(p_today);
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        v_outcome := 'unknown';
    ELSE
        SELECT * INTO v_challenge FROM screenmates.group_challenge c WHERE c.code = p_code AND c.id = p_id;
        IF NOT FOUND THEN
            v_outcome := 'no-challenge';
        ELSIF NOT EXISTS (
            SELECT 1 FROM screenmates.challenge_participant p
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user
        ) THEN
            IF p_today > v_challenge.first_day THEN
                v_outcome := 'closed';
            ELSIF (SELECT count(*) FROM screenmates.challenge_participant p
                JOIN screenmates.group_challenge c ON c.code = p.code AND c.id = p.challenge_id
                WHERE p.code = p_code AND p.user_id = v_user
                    AND c.first_day + c.days > screenmates.retained_from(screenmates.day_of(v_at)))
                >= (screenmates.policy()).challenges_joined_per_member
            THEN
                PERFORM screenmates.quota('You are in as many of the group''s challenges as the store allows; let one end first.');
            ELSIF (SELECT count(*) FROM screenmates.challenge_participant p
                WHERE p.code = p_code AND p.challenge_id = p_id) >= (screenmates.policy()).participants_per_challenge
            THEN
                PERFORM screenmates.quota('This challenge has as many participants as the store allows.');
            ELSE
                INSERT INTO screenmates.challenge_participant (code, challenge_id, user_id, state, days_kept, joined_at)
                    VALUES (p_code, p_id, v_user, 'in', 0, v_at);
                PERFORM screenmates.touch(p_code);
            END IF;
        END IF;
    END IF;
    RETURN QUERY SELECT v_outcome, v_challenge.creator_id::text, v_challenge.rule, v_challenge.first_day,
        v_challenge.days, v_challenge.reward, v_challenge.penalty, v_challenge.starts_at, v_challenge.created_at;
END $$;


--
-- Name: join_group_on(text, text, text, text, text, bigint, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.join_group_on(p_user text, p_secret text, p_machine text, p_code text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_now bigint) RETURNS TABLE(outcome text, retry_after bigint, daily_goal_blocks bigint, member_count bigint, created_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_key text := screenmates.name_key(p_name);
    v_at bigint := screenmates.call_ms(p_now);
    v_wait bigint;
    v_stored record;
    v_today record;
BEGIN
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version);
    PERFORM screenmates.check_machine(p_machine, NULL);
    v_wait := screenmates.retry_after(v_user, v_at);
    IF v_wait IS NOT NULL THEN
        RETURN QUERY SELECT 'limited'::text, v_wait, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    IF NOT FOUND THEN
        PERFORM screenmates.record_failed_attempt(v_user, v_at);
        RETURN QUERY SELECT 'unknown'::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = v_user) THEN
        v_stored := screenmates.machine_profile(v_user, p_machine, p_name, p_blocks, p_day, p_streak, p_version,
            NULL);
        IF v_stored.stored THEN
            PERFORM screenmates.apply_profile(ARRAY[p_code], v_user, p_name, v_key, v_stored.renamed, p_streak,
                p_last_active, p_last_updated, p_version);
        END IF;
    ELSE
        IF EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.name_key = v_key) THEN
            RAISE EXCEPTION USING ERRCODE = 'SMNAM', MESSAGE = 'The display name is taken in the group.';
        END IF;
        IF (SELECT count(*) FROM screenmates.member m WHERE m.code = p_code) >= (screenmates.policy()).members_per_group THEN
            PERFORM screenmates.quota('The group is full: it has as many members as the store allows.');
        END IF;
        IF (SELECT count(*) FROM screenmates.member m WHERE m.user_id = v_user) >= (screenmates.policy()).groups_per_member THEN
            PERFORM screenmates.quota('You are in as many groups as the store allows; leave one first.');
        END IF;
        PERFORM screenmates.machine_profile(v_user, p_machine, p_name, p_blocks, p_day, p_streak, p_version, NULL);
        v_today := screenmates.member_today(v_user);
        INSERT INTO screenmates.member (
            code, user_id, display_name, name_key, blocks_today, day, streak, last_active, last_updated,
            version, joined_at)
        VALUES (p_code, v_user, p_name, v_key, coalesce(v_today.blocks, p_blocks), coalesce(v_today.day, p_day),
            p_streak, p_last_active, p_last_updated, p_version, v_at);
        INSERT INTO screenmates.last_group (user_id, code) VALUES (v_user, p_code)
            ON CONFLICT (user_id) DO UPDATE SET code = excluded.code;
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN QUERY SELECT 'found'::text, NULL::bigint, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member m WHERE m.code = g.code), g.created_at
        FROM screenmates.group_info g WHERE g.code = p_code;
END $$;


--
-- Name: join_open_challenge(text, text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.join_open_challenge(p_user text, p_secret text, p_id text, p_name text, p_today bigint, p_now bigint) RETURNS TABLE(outcome text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint, starts_at bigint, published_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
    v_key text := screenmates.name_key(p_name);
    v_challenge screenmates.open_challenge%ROWTYPE;
    v_outcome text := 'joined';
BEGIN
    PERFORM screenmates.check_today(p_today);
    -- The challenge's row locked: joins to one board take turns, so a name is checked and taken
    -- at once.
    SELECT * INTO v_challenge FROM screenmates.open_challenge c WHERE c.id = p_id FOR UPDATE;
    IF NOT FOUND THEN
        v_outcome := 'no-challenge';
    ELSIF NOT EXISTS (
        SELECT 1 FROM screenmates.open_participant p WHERE p.challenge_id = p_id AND p.user_id = v_user
    ) THEN
        IF p_today > v_challenge.first_day THEN
            v_outcome := 'closed';
        ELSIF EXISTS (
            SELECT 1 FROM screenmates.open_participant p WHERE p.challenge_id = p_id AND p.name_key = v_key
        ) THEN
            v_outcome := 'name-taken';
        ELSE
            IF (SELECT count(*) FROM screenmates.open_participant p
                WHERE p.user_id = v_user AND p.joined_on > clock_timestamp() - interval '1 day')
                >= (screenmates.policy()).open_joins_per_member_per_day
            THEN
                PERFORM screenmates.quota(
                    'You have joined as many open challenges today as the store allows; try again tomorrow.');
            END IF;
            INSERT INTO screenmates.open_participant (
                challenge_id, user_id, display_name, name_key, state, days_kept, joined_at)
            VALUES (p_id, v_user, p_name, v_key, 'in', 0, v_at);
            PERFORM nextval('screenmates.open_change_seq');
        END IF;
    END IF;
    RETURN QUERY SELECT v_outcome, v_challenge.rule, v_challenge.first_day, v_challenge.days, v_challenge.reward,
        v_challenge.penalty, v_challenge.starts_at, v_challenge.published_at;
END $$;


--
-- Name: json_count(jsonb, integer); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.json_count(p_value jsonb, p_max integer) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $_$
BEGIN
    IF p_value IS NULL OR jsonb_typeof(p_value) <> 'number' OR p_value::text !~ '^[0-9]{1,6}$'
        OR p_value::text::integer > p_max
    THEN
        RETURN NULL;
    END IF;
    RETURN p_value::text::integer;
END $_$;


--
-- Name: json_keys(jsonb); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.json_keys(p_value jsonb) RETURNS text[]
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    IF p_value IS NULL OR jsonb_typeof(p_value) <> 'object' THEN
        RETURN NULL;
    END IF;
    RETURN ARRAY(SELECT k FROM jsonb_object_keys(p_value) k ORDER BY k);
END $$;


--
-- Name: json_keys_unique(json); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.json_keys_unique(p_value json) RETURNS boolean
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_item json;
BEGIN
    IF json_typeof(p_value) = 'object' THEN
        IF (SELECT count(*) <> count(DISTINCT k) FROM json_object_keys(p_value) k) THEN
            RETURN false;
        END IF;
        FOR v_item IN SELECT e.value FROM json_each(p_value) e LOOP
            IF NOT screenmates.json_keys_unique(v_item) THEN
                RETURN false;
            END IF;
        END LOOP;
    ELSIF json_typeof(p_value) = 'array' THEN
        FOR v_item IN SELECT e FROM json_array_elements(p_value) e LOOP
            IF NOT screenmates.json_keys_unique(v_item) THEN
                RETURN false;
            END IF;
        END LOOP;
    END IF;
    RETURN true;
END $$;


--
-- Name: last_possible_today(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.last_possible_today() RETURNS bigint
    LANGUAGE sql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT CASE WHEN screenmates.members_choose_clock() THEN NULL
        ELSE floor(extract(epoch FROM clock_timestamp()) / 86400)::bigint + 1 END
$$;


--
-- Name: leave_group(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.leave_group(p_user text, p_secret text, p_code text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_wait bigint;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = p_code AND m.user_id = v_user) THEN
        v_wait := screenmates.retry_after(v_user, screenmates.server_ms());
        IF v_wait IS NOT NULL THEN
            RAISE EXCEPTION USING ERRCODE = 'SMLIM', MESSAGE = 'Too many wrong group codes.', DETAIL = v_wait::text;
        END IF;
        IF EXISTS (SELECT 1 FROM screenmates.group_info g WHERE g.code = p_code) THEN
            RETURN true;
        END IF;
        RETURN screenmates.group_access(v_user, p_code);
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    DELETE FROM screenmates.member m WHERE m.code = p_code AND m.user_id = v_user;
    PERFORM screenmates.touch(p_code);
    PERFORM screenmates.drop_if_empty(p_code);
    RETURN true;
END $$;


--
-- Name: lock_group(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.lock_group(p_user text, p_code text) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    IF NOT screenmates.group_access(p_user, p_code) THEN
        RETURN false;
    END IF;
    PERFORM 1 FROM screenmates.group_info g WHERE g.code = p_code FOR UPDATE;
    RETURN true;
END $$;


--
-- Name: lock_login(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.lock_login() RETURNS void
    LANGUAGE sql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT pg_catalog.pg_advisory_xact_lock(pg_catalog.hashtextextended('screenmates login ' || session_user, 0))
$$;


--
-- Name: lock_my_groups(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.lock_my_groups(p_user text) RETURNS text[]
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_codes text[] := '{}';
    v_code text;
    v_last text;
BEGIN
    FOR v_code IN
        SELECT g.code FROM screenmates.group_info g
        WHERE g.code IN (SELECT m.code FROM screenmates.member m WHERE m.user_id = p_user)
        ORDER BY g.code FOR UPDATE
    LOOP
        v_codes := v_codes || v_code;
    END LOOP;
    IF cardinality(v_codes) = 0 THEN
        SELECT l.code INTO v_last FROM screenmates.last_group l WHERE l.user_id = p_user;
        IF FOUND THEN
            RAISE EXCEPTION USING ERRCODE = 'SMNOT', MESSAGE = 'Not a member of the group.', DETAIL = v_last;
        END IF;
        RAISE EXCEPTION USING ERRCODE = 'SMNEW', MESSAGE = 'Not a member of any group.';
    END IF;
    RETURN v_codes;
END $$;


--
-- Name: machine_of(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.machine_of(p_user text, p_machine text) RETURNS screenmates.machine
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_machine screenmates.machine%ROWTYPE;
BEGIN
    SELECT * INTO v_machine FROM screenmates.machine m WHERE m.user_id = p_user AND m.machine_id = p_machine FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING ERRCODE = 'SMDEV', MESSAGE = 'The store does not know this machine of yours.',
            DETAIL = p_machine;
    END IF;
    IF v_machine.retired_at IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = 'SMRET', MESSAGE = 'This machine was removed from your machines.',
            DETAIL = v_machine.name;
    END IF;
    RETURN v_machine;
END $$;


--
-- Name: machine_profile(text, text, text, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.machine_profile(p_user text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_version bigint, p_productive_today bigint, OUT stored boolean, OUT renamed boolean) RETURNS record
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_machine screenmates.machine%ROWTYPE := screenmates.own_machine(p_user, p_machine);
BEGIN
    stored := p_version > v_machine.version;
    renamed := v_machine.sent_name IS DISTINCT FROM p_name;
    IF stored THEN
        UPDATE screenmates.machine m SET blocks_today = p_blocks, day = p_day, streak = p_streak, version = p_version,
            sent_name = p_name, productive_today = p_productive_today
        WHERE m.user_id = p_user AND m.machine_id = v_machine.machine_id;
    END IF;
END $$;


--
-- Name: machine_quota(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.machine_quota(p_user text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_policy screenmates.store_policy := screenmates.policy();
BEGIN
    IF (SELECT count(*) FROM screenmates.machine m WHERE m.user_id = p_user AND m.retired_at IS NULL)
        >= v_policy.machines_per_member
    THEN
        PERFORM screenmates.quota('You use as many machines as the store allows (' || v_policy.machines_per_member
            || '): remove one first (screenmates devices remove NAME).');
    END IF;
    IF (SELECT count(*) FROM screenmates.machine m WHERE m.user_id = p_user) >= v_policy.machines_kept_per_member THEN
        PERFORM screenmates.quota('You have had as many machines as the store keeps (' || v_policy.machines_kept_per_member
            || '); a removed one is let go once no day it sent is kept.');
    END IF;
END $$;


--
-- Name: member_coins(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.member_coins(p_user text, p_secret text, p_code text) RETURNS TABLE(known boolean, user_id text, coins bigint, badges bigint, updated_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, s.user_id::text, s.coins, s.badges, s.updated_at
        FROM screenmates.coin_standing s JOIN screenmates.member m ON m.user_id = s.user_id
        WHERE m.code = p_code ORDER BY s.user_id;
END $$;


--
-- Name: member_coins_after(text, text, text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.member_coins_after(p_user text, p_secret text, p_code text, p_after bigint) RETURNS TABLE(known boolean, user_id text, coins bigint, badges bigint, updated_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, s.user_id::text, s.coins, s.badges, s.updated_at
        FROM screenmates.coin_standing s JOIN screenmates.member m ON m.user_id = s.user_id
        WHERE m.code = p_code AND m.seq > coalesce(p_after, -1) ORDER BY s.user_id;
END $$;


--
-- Name: member_today(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.member_today(p_user text, OUT day bigint, OUT blocks bigint) RETURNS record
    LANGUAGE sql STABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT x.day, least(coalesce(sum(c.blocks_today) FILTER (WHERE c.day = x.day), 0), 1440)::bigint
    FROM (SELECT max(m.day) AS day FROM screenmates.machine m WHERE m.user_id = p_user) x
    LEFT JOIN screenmates.machine c ON c.user_id = p_user
    GROUP BY x.day
$$;


--
-- Name: members_after(text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.members_after(p_code text, p_after bigint) RETURNS TABLE(user_id text, display_name text, blocks_today bigint, day bigint, streak bigint, last_active bigint, last_updated bigint, version bigint)
    LANGUAGE plpgsql STABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
#variable_conflict use_column
BEGIN
    IF p_after IS NULL THEN
        RETURN QUERY SELECT m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak, m.last_active,
            m.last_updated, m.version
            FROM screenmates.member m WHERE m.code = p_code ORDER BY m.joined_at, m.user_id;
    ELSE
        RETURN QUERY SELECT m.user_id::text, m.display_name, m.blocks_today, m.day, m.streak, m.last_active,
            m.last_updated, m.version
            FROM screenmates.member m WHERE m.code = p_code AND m.seq > p_after ORDER BY m.joined_at, m.user_id;
    END IF;
END $$;


--
-- Name: members_choose_clock(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.members_choose_clock() RETURNS boolean
    LANGUAGE sql STABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT coalesce((SELECT p.members_choose_clock FROM screenmates.store_policy p), false)
$$;


--
-- Name: my_day_totals(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.my_day_totals(p_user text, p_secret text, p_code text) RETURNS TABLE(date bigint, vice_blocks bigint, goal_blocks bigint, version bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT d.date, d.vice_blocks, d.goal_blocks, d.version FROM screenmates.day_total d
        WHERE d.code = p_code AND d.user_id = v_user ORDER BY d.date;
END $$;


--
-- Name: my_machine_days(text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.my_machine_days(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint) RETURNS TABLE(known boolean, machine_id text, date bigint, vice_blocks bigint, goal_blocks bigint, version bigint, productive_blocks bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, t.machine_id::text, t.date, t.vice_blocks, t.goal_blocks, t.version, t.productive_blocks
        FROM screenmates.machine_day_total t
        WHERE t.code = p_code AND t.user_id = v_user AND t.date BETWEEN p_first AND p_last
        ORDER BY t.date, t.machine_id <> 'first', t.machine_id;
END $$;


--
-- Name: my_machines(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.my_machines(p_user text, p_secret text) RETURNS TABLE(machine_id text, name text, added_at bigint, last_seen bigint, retired_at bigint, adopted_first boolean, blocks_today bigint, day bigint, version bigint, productive_today bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT m.machine_id, m.name, m.added_at, m.last_seen, m.retired_at, m.adopted_first,
        m.blocks_today, m.day, m.version, m.productive_today
    FROM screenmates.machine m WHERE m.user_id = v_user ORDER BY m.added_at, m.machine_id;
END $$;


--
-- Name: my_memberships(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.my_memberships(p_user text, p_secret text) RETURNS TABLE(code text, daily_goal_blocks bigint, member_count bigint, created_at bigint, display_name text, blocks_today bigint, day bigint, streak bigint, last_active bigint, last_updated bigint, version bigint, joined_at bigint, standing_version bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT m.code::text, g.daily_goal_blocks,
        (SELECT count(*) FROM screenmates.member x WHERE x.code = m.code), g.created_at, m.display_name,
        m.blocks_today, m.day, m.streak, m.last_active, m.last_updated, m.version, m.joined_at,
        (SELECT s.version FROM screenmates.coin_standing s WHERE s.user_id = v_user)
        FROM screenmates.member m JOIN screenmates.group_info g ON g.code = m.code
        WHERE m.user_id = v_user ORDER BY m.joined_at DESC, m.code;
END $$;


--
-- Name: name_key(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.name_key(p_name text) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    IF NOT screenmates.is_name(p_name) THEN
        PERFORM screenmates.refuse('A display name is 1–20 letters, digits and underscores.');
    END IF;
    RETURN lower(p_name);
END $$;


--
-- Name: name_letters(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.name_letters() RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT '\u0030-\u0039\u0041-\u005A\u005F\u0061-\u007A\u00AA\u00B5\u00BA\u00C0-\u00D6\u00D8-\u00F6'
        '\u00F8-\u02C1\u02C6-\u02D1\u02E0-\u02E4\u02EC\u02EE\u0370-\u0374\u0376-\u0377\u037A-\u037D'
        '\u037F\u0386\u0388-\u038A\u038C\u038E-\u03A1\u03A3-\u03F5\u03F7-\u0481\u048A-\u052F'
        '\u0531-\u0556\u0559\u0560-\u0588\u05D0-\u05EA\u05EF-\u05F2\u0620-\u064A\u0660-\u0669'
        '\u066E-\u066F\u0671-\u06D3\u06D5\u06E5-\u06E6\u06EE-\u06FC\u06FF\u0710\u0712-\u072F'
        '\u074D-\u07A5\u07B1\u07C0-\u07EA\u07F4-\u07F5\u07FA\u0800-\u0815\u081A\u0824\u0828'
        '\u0840-\u0858\u0860-\u086A\u0870-\u0887\u0889-\u088E\u08A0-\u08C9\u0904-\u0939\u093D\u0950'
        '\u0958-\u0961\u0966-\u096F\u0971-\u0980\u0985-\u098C\u098F-\u0990\u0993-\u09A8'
        '\u09AA-\u09B0\u09B2\u09B6-\u09B9\u09BD\u09CE\u09DC-\u09DD\u09DF-\u09E1\u09E6-\u09F1\u09FC'
        '\u0A05-\u0A0A\u0A0F-\u0A10\u0A13-\u0A28\u0A2A-\u0A30\u0A32-\u0A33\u0A35-\u0A36'
        '\u0A38-\u0A39\u0A59-\u0A5C\u0A5E\u0A66-\u0A6F\u0A72-\u0A74\u0A85-\u0A8D\u0A8F-\u0A91'
        '\u0A93-\u0AA8\u0AAA-\u0AB0\u0AB2-\u0AB3\u0AB5-\u0AB9\u0ABD\u0AD0\u0AE0-\u0AE1\u0AE6-\u0AEF'
        '\u0AF9\u0B05-\u0B0C\u0B0F-\u0B10\u0B13-\u0B28\u0B2A-\u0B30\u0B32-\u0B33\u0B35-\u0B39\u0B3D'
        '\u0B5C-\u0B5D\u0B5F-\u0B61\u0B66-\u0B6F\u0B71\u0B83\u0B85-\u0B8A\u0B8E-\u0B90\u0B92-\u0B95'
        '\u0B99-\u0B9A\u0B9C\u0B9E-\u0B9F\u0BA3-\u0BA4\u0BA8-\u0BAA\u0BAE-\u0BB9\u0BD0\u0BE6-\u0BEF'
        '\u0C05-\u0C0C\u0C0E-\u0C10\u0C12-\u0C28\u0C2A-\u0C39\u0C3D\u0C58-\u0C5A\u0C5D\u0C60-\u0C61'
        '\u0C66-\u0C6F\u0C80\u0C85-\u0C8C\u0C8E-\u0C90\u0C92-\u0CA8\u0CAA-\u0CB3\u0CB5-\u0CB9\u0CBD'
        '\u0CDD-\u0CDE\u0CE0-\u0CE1\u0CE6-\u0CEF\u0CF1-\u0CF2\u0D04-\u0D0C\u0D0E-\u0D10'
        '\u0D12-\u0D3A\u0D3D\u0D4E\u0D54-\u0D56\u0D5F-\u0D61\u0D66-\u0D6F\u0D7A-\u0D7F\u0D85-\u0D96'
        '\u0D9A-\u0DB1\u0DB3-\u0DBB\u0DBD\u0DC0-\u0DC6\u0DE6-\u0DEF\u0E01-\u0E30\u0E32-\u0E33'
        '\u0E40-\u0E46\u0E50-\u0E59\u0E81-\u0E82\u0E84\u0E86-\u0E8A\u0E8C-\u0EA3\u0EA5\u0EA7-\u0EB0'
        '\u0EB2-\u0EB3\u0EBD\u0EC0-\u0EC4\u0EC6\u0ED0-\u0ED9\u0EDC-\u0EDF\u0F00\u0F20-\u0F29'
        '\u0F40-\u0F47\u0F49-\u0F6C\u0F88-\u0F8C\u1000-\u102A\u103F-\u1049\u1050-\u1055'
        '\u105A-\u105D\u1061\u1065-\u1066\u106E-\u1070\u1075-\u1081\u108E\u1090-\u1099\u10A0-\u10C5'
        '\u10C7\u10CD\u10D0-\u10FA\u10FC-\u115F\u1200-\u1248\u124A-\u124D\u1250-\u1256\u1258'
        '\u125A-\u125D\u1260-\u1288\u128A-\u128D\u1290-\u12B0\u12B2-\u12B5\u12B8-\u12BE\u12C0'
        '\u12C2-\u12C5\u12C8-\u12D6\u12D8-\u1310\u1312-\u1315\u1318-\u135A\u1380-\u138F'
        '\u13A0-\u13F5\u13F8-\u13FD\u1401-\u166C\u166F-\u167F\u1681-\u169A\u16A0-\u16EA'
        '\u16F1-\u16F8\u1700-\u1711\u171F-\u1731\u1740-\u1751\u1760-\u176C\u176E-\u1770'
        '\u1780-\u17B3\u17D7\u17DC\u17E0-\u17E9\u1810-\u1819\u1820-\u1878\u1880-\u1884\u1887-\u18A8'
        '\u18AA\u18B0-\u18F5\u1900-\u191E\u1946-\u196D\u1970-\u1974\u1980-\u19AB\u19B0-\u19C9'
        '\u19D0-\u19D9\u1A00-\u1A16\u1A20-\u1A54\u1A80-\u1A89\u1A90-\u1A99\u1AA7\u1B05-\u1B33'
        '\u1B45-\u1B4C\u1B50-\u1B59\u1B83-\u1BA0\u1BAE-\u1BE5\u1C00-\u1C23\u1C40-\u1C49'
        '\u1C4D-\u1C7D\u1C80-\u1C88\u1C90-\u1CBA\u1CBD-\u1CBF\u1CE9-\u1CEC\u1CEE-\u1CF3'
        '\u1CF5-\u1CF6\u1CFA\u1D00-\u1DBF\u1E00-\u1F15\u1F18-\u1F1D\u1F20-\u1F45\u1F48-\u1F4D'
        '\u1F50-\u1F57\u1F59\u1F5B\u1F5D\u1F5F-\u1F7D\u1F80-\u1FB4\u1FB6-\u1FBC\u1FBE\u1FC2-\u1FC4'
        '\u1FC6-\u1FCC\u1FD0-\u1FD3\u1FD6-\u1FDB\u1FE0-\u1FEC\u1FF2-\u1FF4\u1FF6-\u1FFC\u2071\u207F'
        '\u2090-\u209C\u2102\u2107\u210A-\u2113\u2115\u2119-\u211D\u2124\u2126\u2128\u212A-\u212D'
        '\u212F-\u2139\u213C-\u213F\u2145-\u2149\u214E\u2183-\u2184\u2C00-\u2CE4\u2CEB-\u2CEE'
        '\u2CF2-\u2CF3\u2D00-\u2D25\u2D27\u2D2D\u2D30-\u2D67\u2D6F\u2D80-\u2D96\u2DA0-\u2DA6'
        '\u2DA8-\u2DAE\u2DB0-\u2DB6\u2DB8-\u2DBE\u2DC0-\u2DC6\u2DC8-\u2DCE\u2DD0-\u2DD6'
        '\u2DD8-\u2DDE\u2E2F\u3005-\u3006\u3031-\u3035\u303B-\u303C\u3041-\u3096\u309D-\u309F'
        '\u30A1-\u30FA\u30FC-\u30FF\u3105-\u312F\u3131-\u318E\u31A0-\u31BF\u31F0-\u31FF'
        '\u3400-\u4DBF\u4E00-\uA48C\uA4D0-\uA4FD\uA500-\uA60C\uA610-\uA62B\uA640-\uA66E'
        '\uA67F-\uA69D\uA6A0-\uA6E5\uA717-\uA71F\uA722-\uA788\uA78B-\uA7CA\uA7D0-\uA7D1\uA7D3'
        '\uA7D5-\uA7D9\uA7F2-\uA801\uA803-\uA805\uA807-\uA80A\uA80C-\uA822\uA840-\uA873'
        '\uA882-\uA8B3\uA8D0-\uA8D9\uA8F2-\uA8F7\uA8FB\uA8FD-\uA8FE\uA900-\uA925\uA930-\uA946'
        '\uA960-\uA97C\uA984-\uA9B2\uA9CF-\uA9D9\uA9E0-\uA9E4\uA9E6-\uA9FE\uAA00-\uAA28'
        '\uAA40-\uAA42\uAA44-\uAA4B\uAA50-\uAA59\uAA60-\uAA76\uAA7A\uAA7E-\uAAAF\uAAB1\uAAB5-\uAAB6'
        '\uAAB9-\uAABD\uAAC0\uAAC2\uAADB-\uAADD\uAAE0-\uAAEA\uAAF2-\uAAF4\uAB01-\uAB06\uAB09-\uAB0E'
        '\uAB11-\uAB16\uAB20-\uAB26\uAB28-\uAB2E\uAB30-\uAB5A\uAB5C-\uAB69\uAB70-\uABE2'
        '\uABF0-\uABF9\uAC00-\uD7A3\uF900-\uFA6D\uFA70-\uFAD9\uFB00-\uFB06\uFB13-\uFB17\uFB1D'
        '\uFB1F-\uFB28\uFB2A-\uFB36\uFB38-\uFB3C\uFB3E\uFB40-\uFB41\uFB43-\uFB44\uFB46-\uFBB1'
        '\uFBD3-\uFD3D\uFD50-\uFD8F\uFD92-\uFDC7\uFDF0-\uFDFB\uFE70-\uFE74\uFE76-\uFEFC'
        '\uFF10-\uFF19\uFF21-\uFF3A\uFF41-\uFF5A\uFF66-\uFFBE\uFFC2-\uFFC7\uFFCA-\uFFCF'
        '\uFFD2-\uFFD7\uFFDA-\uFFDC\U00010000-\U0001000B\U0001000D-\U00010026\U00010028-\U0001003A'
        '\U0001003C-\U0001003D\U0001003F-\U0001004D\U00010050-\U0001005D\U00010080-\U000100FA'
        '\U00010280-\U0001029C\U000102A0-\U000102D0\U00010300-\U0001031F\U0001032D-\U00010340'
        '\U00010342-\U00010349\U00010350-\U00010375\U00010380-\U0001039D\U000103A0-\U000103C3'
        '\U000103C8-\U000103CF\U00010400-\U0001049D\U000104A0-\U000104A9\U000104B0-\U000104D3'
        '\U000104D8-\U000104FB\U00010500-\U00010527\U00010530-\U00010563\U00010570-\U0001057A'
        '\U0001057C-\U0001058A\U0001058C-\U00010592\U00010594-\U00010595\U00010597-\U000105A1'
        '\U000105A3-\U000105B1\U000105B3-\U000105B9\U000105BB-\U000105BC\U00010600-\U00010736'
        '\U00010740-\U00010755\U00010760-\U00010767\U00010780-\U00010785\U00010787-\U000107B0'
        '\U000107B2-\U000107BA\U00010800-\U00010805\U00010808\U0001080A-\U00010835'
        '\U00010837-\U00010838\U0001083C\U0001083F-\U00010855\U00010860-\U00010876'
        '\U00010880-\U0001089E\U000108E0-\U000108F2\U000108F4-\U000108F5\U00010900-\U00010915'
        '\U00010920-\U00010939\U00010980-\U000109B7\U000109BE-\U000109BF\U00010A00'
        '\U00010A10-\U00010A13\U00010A15-\U00010A17\U00010A19-\U00010A35\U00010A60-\U00010A7C'
        '\U00010A80-\U00010A9C\U00010AC0-\U00010AC7\U00010AC9-\U00010AE4\U00010B00-\U00010B35'
        '\U00010B40-\U00010B55\U00010B60-\U00010B72\U00010B80-\U00010B91\U00010C00-\U00010C48'
        '\U00010C80-\U00010CB2\U00010CC0-\U00010CF2\U00010D00-\U00010D23\U00010D30-\U00010D39'
        '\U00010E80-\U00010EA9\U00010EB0-\U00010EB1\U00010F00-\U00010F1C\U00010F27'
        '\U00010F30-\U00010F45\U00010F70-\U00010F81\U00010FB0-\U00010FC4\U00010FE0-\U00010FF6'
        '\U00011003-\U00011037\U00011066-\U0001106F\U00011071-\U00011072\U00011075'
        '\U00011083-\U000110AF\U000110D0-\U000110E8\U000110F0-\U000110F9\U00011103-\U00011126'
        '\U00011136-\U0001113F\U00011144\U00011147\U00011150-\U00011172\U00011176'
        '\U00011183-\U000111B2\U000111C1-\U000111C4\U000111D0-\U000111DA\U000111DC'
        '\U00011200-\U00011211\U00011213-\U0001122B\U00011280-\U00011286\U00011288'
        '\U0001128A-\U0001128D\U0001128F-\U0001129D\U0001129F-\U000112A8\U000112B0-\U000112DE'
        '\U000112F0-\U000112F9\U00011305-\U0001130C\U0001130F-\U00011310\U00011313-\U00011328'
        '\U0001132A-\U00011330\U00011332-\U00011333\U00011335-\U00011339\U0001133D\U00011350'
        '\U0001135D-\U00011361\U00011400-\U00011434\U00011447-\U0001144A\U00011450-\U00011459'
        '\U0001145F-\U00011461\U00011480-\U000114AF\U000114C4-\U000114C5\U000114C7'
        '\U000114D0-\U000114D9\U00011580-\U000115AE\U000115D8-\U000115DB\U00011600-\U0001162F'
        '\U00011644\U00011650-\U00011659\U00011680-\U000116AA\U000116B8\U000116C0-\U000116C9'
        '\U00011700-\U0001171A\U00011730-\U00011739\U00011740-\U00011746\U00011800-\U0001182B'
        '\U000118A0-\U000118E9\U000118FF-\U00011906\U00011909\U0001190C-\U00011913'
        '\U00011915-\U00011916\U00011918-\U0001192F\U0001193F\U00011941\U00011950-\U00011959'
        '\U000119A0-\U000119A7\U000119AA-\U000119D0\U000119E1\U000119E3\U00011A00'
        '\U00011A0B-\U00011A32\U00011A3A\U00011A50\U00011A5C-\U00011A89\U00011A9D'
        '\U00011AB0-\U00011AF8\U00011C00-\U00011C08\U00011C0A-\U00011C2E\U00011C40'
        '\U00011C50-\U00011C59\U00011C72-\U00011C8F\U00011D00-\U00011D06\U00011D08-\U00011D09'
        '\U00011D0B-\U00011D30\U00011D46\U00011D50-\U00011D59\U00011D60-\U00011D65'
        '\U00011D67-\U00011D68\U00011D6A-\U00011D89\U00011D98\U00011DA0-\U00011DA9'
        '\U00011EE0-\U00011EF2\U00011FB0\U00012000-\U00012399\U00012480-\U00012543'
        '\U00012F90-\U00012FF0\U00013000-\U0001342E\U00014400-\U00014646\U00016800-\U00016A38'
        '\U00016A40-\U00016A5E\U00016A60-\U00016A69\U00016A70-\U00016ABE\U00016AC0-\U00016AC9'
        '\U00016AD0-\U00016AED\U00016B00-\U00016B2F\U00016B40-\U00016B43\U00016B50-\U00016B59'
        '\U00016B63-\U00016B77\U00016B7D-\U00016B8F\U00016E40-\U00016E7F\U00016F00-\U00016F4A'
        '\U00016F50\U00016F93-\U00016F9F\U00016FE0-\U00016FE1\U00016FE3\U00017000-\U000187F7'
        '\U00018800-\U00018CD5\U00018D00-\U00018D08\U0001AFF0-\U0001AFF3\U0001AFF5-\U0001AFFB'
        '\U0001AFFD-\U0001AFFE\U0001B000-\U0001B122\U0001B150-\U0001B152\U0001B164-\U0001B167'
        '\U0001B170-\U0001B2FB\U0001BC00-\U0001BC6A\U0001BC70-\U0001BC7C\U0001BC80-\U0001BC88'
        '\U0001BC90-\U0001BC99\U0001D400-\U0001D454\U0001D456-\U0001D49C\U0001D49E-\U0001D49F'
        '\U0001D4A2\U0001D4A5-\U0001D4A6\U0001D4A9-\U0001D4AC\U0001D4AE-\U0001D4B9\U0001D4BB'
        '\U0001D4BD-\U0001D4C3\U0001D4C5-\U0001D505\U0001D507-\U0001D50A\U0001D50D-\U0001D514'
        '\U0001D516-\U0001D51C\U0001D51E-\U0001D539\U0001D53B-\U0001D53E\U0001D540-\U0001D544'
        '\U0001D546\U0001D54A-\U0001D550\U0001D552-\U0001D6A5\U0001D6A8-\U0001D6C0'
        '\U0001D6C2-\U0001D6DA\U0001D6DC-\U0001D6FA\U0001D6FC-\U0001D714\U0001D716-\U0001D734'
        '\U0001D736-\U0001D74E\U0001D750-\U0001D76E\U0001D770-\U0001D788\U0001D78A-\U0001D7A8'
        '\U0001D7AA-\U0001D7C2\U0001D7C4-\U0001D7CB\U0001D7CE-\U0001D7FF\U0001DF00-\U0001DF1E'
        '\U0001E100-\U0001E12C\U0001E137-\U0001E13D\U0001E140-\U0001E149\U0001E14E'
        '\U0001E290-\U0001E2AD\U0001E2C0-\U0001E2EB\U0001E2F0-\U0001E2F9\U0001E7E0-\U0001E7E6'
        '\U0001E7E8-\U0001E7EB\U0001E7ED-\U0001E7EE\U0001E7F0-\U0001E7FE\U0001E800-\U0001E8C4'
        '\U0001E900-\U0001E943\U0001E94B\U0001E950-\U0001E959\U0001EE00-\U0001EE03'
        '\U0001EE05-\U0001EE1F\U0001EE21-\U0001EE22\U0001EE24\U0001EE27\U0001EE29-\U0001EE32'
        '\U0001EE34-\U0001EE37\U0001EE39\U0001EE3B\U0001EE42\U0001EE47\U0001EE49\U0001EE4B'
        '\U0001EE4D-\U0001EE4F\U0001EE51-\U0001EE52\U0001EE54\U0001EE57\U0001EE59\U0001EE5B'
        '\U0001EE5D\U0001EE5F\U0001EE61-\U0001EE62\U0001EE64\U0001EE67-\U0001EE6A'
        '\U0001EE6C-\U0001EE72\U0001EE74-\U0001EE77\U0001EE79-\U0001EE7C\U0001EE7E'
        '\U0001EE80-\U0001EE89\U0001EE8B-\U0001EE9B\U0001EEA1-\U0001EEA3\U0001EEA5-\U0001EEA9'
        '\U0001EEAB-\U0001EEBB\U0001FBF0-\U0001FBF9\U00020000-\U0002A6DF\U0002A700-\U0002B738'
        '\U0002B740-\U0002B81D\U0002B820-\U0002CEA1\U0002CEB0-\U0002EBE0\U0002F800-\U0002FA1D'
        '\U00030000-\U0003134A'
$$;


--
-- Name: name_marks(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.name_marks() RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT '\u0300-\u036F\u0483-\u0487\u0591-\u05BD\u05BF\u05C1-\u05C2\u05C4-\u05C5\u05C7\u0610-\u061A'
        '\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E4\u06E7-\u06E8\u06EA-\u06ED\u0711\u0730-\u074A'
        '\u07A6-\u07B0\u07EB-\u07F3\u07FD\u0816-\u0819\u081B-\u0823\u0825-\u0827\u0829-\u082D'
        '\u0859-\u085B\u0898-\u089F\u08CA-\u08E1\u08E3-\u0903\u093A-\u093C\u093E-\u094F'
        '\u0951-\u0957\u0962-\u0963\u0981-\u0983\u09BC\u09BE-\u09C4\u09C7-\u09C8\u09CB-\u09CD\u09D7'
        '\u09E2-\u09E3\u09FE\u0A01-\u0A03\u0A3C\u0A3E-\u0A42\u0A47-\u0A48\u0A4B-\u0A4D\u0A51'
        '\u0A70-\u0A71\u0A75\u0A81-\u0A83\u0ABC\u0ABE-\u0AC5\u0AC7-\u0AC9\u0ACB-\u0ACD\u0AE2-\u0AE3'
        '\u0AFA-\u0AFF\u0B01-\u0B03\u0B3C\u0B3E-\u0B44\u0B47-\u0B48\u0B4B-\u0B4D\u0B55-\u0B57'
        '\u0B62-\u0B63\u0B82\u0BBE-\u0BC2\u0BC6-\u0BC8\u0BCA-\u0BCD\u0BD7\u0C00-\u0C04\u0C3C'
        '\u0C3E-\u0C44\u0C46-\u0C48\u0C4A-\u0C4D\u0C55-\u0C56\u0C62-\u0C63\u0C81-\u0C83\u0CBC'
        '\u0CBE-\u0CC4\u0CC6-\u0CC8\u0CCA-\u0CCD\u0CD5-\u0CD6\u0CE2-\u0CE3\u0D00-\u0D03'
        '\u0D3B-\u0D3C\u0D3E-\u0D44\u0D46-\u0D48\u0D4A-\u0D4D\u0D57\u0D62-\u0D63\u0D81-\u0D83\u0DCA'
        '\u0DCF-\u0DD4\u0DD6\u0DD8-\u0DDF\u0DF2-\u0DF3\u0E31\u0E34-\u0E3A\u0E47-\u0E4E\u0EB1'
        '\u0EB4-\u0EBC\u0EC8-\u0ECD\u0F18-\u0F19\u0F35\u0F37\u0F39\u0F3E-\u0F3F\u0F71-\u0F84'
        '\u0F86-\u0F87\u0F8D-\u0F97\u0F99-\u0FBC\u0FC6\u102B-\u103E\u1056-\u1059\u105E-\u1060'
        '\u1062-\u1064\u1067-\u106D\u1071-\u1074\u1082-\u108D\u108F\u109A-\u109D\u135D-\u135F'
        '\u1712-\u1715\u1732-\u1734\u1752-\u1753\u1772-\u1773\u17B4-\u17D3\u17DD\u180B-\u180D\u180F'
        '\u1885-\u1886\u18A9\u1920-\u192B\u1930-\u193B\u1A17-\u1A1B\u1A55-\u1A5E\u1A60-\u1A7C\u1A7F'
        '\u1AB0-\u1ABD\u1ABF-\u1ACE\u1B00-\u1B04\u1B34-\u1B44\u1B6B-\u1B73\u1B80-\u1B82'
        '\u1BA1-\u1BAD\u1BE6-\u1BF3\u1C24-\u1C37\u1CD0-\u1CD2\u1CD4-\u1CE8\u1CED\u1CF4\u1CF7-\u1CF9'
        '\u1DC0-\u1DFF\u20D0-\u20DC\u20E1\u20E5-\u20F0\u2CEF-\u2CF1\u2D7F\u2DE0-\u2DFF\u302A-\u302F'
        '\u3099-\u309A\uA66F\uA674-\uA67D\uA69E-\uA69F\uA6F0-\uA6F1\uA802\uA806\uA80B\uA823-\uA827'
        '\uA82C\uA880-\uA881\uA8B4-\uA8C5\uA8E0-\uA8F1\uA8FF\uA926-\uA92D\uA947-\uA953\uA980-\uA983'
        '\uA9B3-\uA9C0\uA9E5\uAA29-\uAA36\uAA43\uAA4C-\uAA4D\uAA7B-\uAA7D\uAAB0\uAAB2-\uAAB4'
        '\uAAB7-\uAAB8\uAABE-\uAABF\uAAC1\uAAEB-\uAAEF\uAAF5-\uAAF6\uABE3-\uABEA\uABEC-\uABED\uFB1E'
        '\uFE20-\uFE2F\U000101FD\U000102E0\U00010376-\U0001037A\U00010A01-\U00010A03'
        '\U00010A05-\U00010A06\U00010A0C-\U00010A0F\U00010A38-\U00010A3A\U00010A3F'
        '\U00010AE5-\U00010AE6\U00010D24-\U00010D27\U00010EAB-\U00010EAC\U00010F46-\U00010F50'
        '\U00010F82-\U00010F85\U00011000-\U00011002\U00011038-\U00011046\U00011070'
        '\U00011073-\U00011074\U0001107F-\U00011082\U000110B0-\U000110BA\U000110C2'
        '\U00011100-\U00011102\U00011127-\U00011134\U00011145-\U00011146\U00011173'
        '\U00011180-\U00011182\U000111B3-\U000111C0\U000111C9-\U000111CC\U000111CE-\U000111CF'
        '\U0001122C-\U00011237\U0001123E\U000112DF-\U000112EA\U00011300-\U00011303'
        '\U0001133B-\U0001133C\U0001133E-\U00011344\U00011347-\U00011348\U0001134B-\U0001134D'
        '\U00011357\U00011362-\U00011363\U00011366-\U0001136C\U00011370-\U00011374'
        '\U00011435-\U00011446\U0001145E\U000114B0-\U000114C3\U000115AF-\U000115B5'
        '\U000115B8-\U000115C0\U000115DC-\U000115DD\U00011630-\U00011640\U000116AB-\U000116B7'
        '\U0001171D-\U0001172B\U0001182C-\U0001183A\U00011930-\U00011935\U00011937-\U00011938'
        '\U0001193B-\U0001193E\U00011940\U00011942-\U00011943\U000119D1-\U000119D7'
        '\U000119DA-\U000119E0\U000119E4\U00011A01-\U00011A0A\U00011A33-\U00011A39'
        '\U00011A3B-\U00011A3E\U00011A47\U00011A51-\U00011A5B\U00011A8A-\U00011A99'
        '\U00011C2F-\U00011C36\U00011C38-\U00011C3F\U00011C92-\U00011CA7\U00011CA9-\U00011CB6'
        '\U00011D31-\U00011D36\U00011D3A\U00011D3C-\U00011D3D\U00011D3F-\U00011D45\U00011D47'
        '\U00011D8A-\U00011D8E\U00011D90-\U00011D91\U00011D93-\U00011D97\U00011EF3-\U00011EF6'
        '\U00016AF0-\U00016AF4\U00016B30-\U00016B36\U00016F4F\U00016F51-\U00016F87'
        '\U00016F8F-\U00016F92\U00016FE4\U00016FF0-\U00016FF1\U0001BC9D-\U0001BC9E'
        '\U0001CF00-\U0001CF2D\U0001CF30-\U0001CF46\U0001D165-\U0001D169\U0001D16D-\U0001D172'
        '\U0001D17B-\U0001D182\U0001D185-\U0001D18B\U0001D1AA-\U0001D1AD\U0001D242-\U0001D244'
        '\U0001DA00-\U0001DA36\U0001DA3B-\U0001DA6C\U0001DA75\U0001DA84\U0001DA9B-\U0001DA9F'
        '\U0001DAA1-\U0001DAAF\U0001E000-\U0001E006\U0001E008-\U0001E018\U0001E01B-\U0001E021'
        '\U0001E023-\U0001E024\U0001E026-\U0001E02A\U0001E130-\U0001E136\U0001E2AE'
        '\U0001E2EC-\U0001E2EF\U0001E8D0-\U0001E8D6\U0001E944-\U0001E94A'
$$;


--
-- Name: notices_skipped(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.notices_skipped() RETURNS boolean
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
    SELECT pg_catalog.pg_notification_queue_usage() >= (screenmates.policy()).notify_queue_limit
$$;


--
-- Name: open_challenges(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.open_challenges(p_user text, p_secret text) RETURNS TABLE(id text, rule text, first_day bigint, days bigint, reward bigint, penalty bigint, starts_at bigint, published_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT c.id::text, c.rule, c.first_day, c.days, c.reward, c.penalty, c.starts_at, c.published_at
        FROM screenmates.open_challenge c ORDER BY c.published_at DESC, c.id;
END $$;


--
-- Name: open_changes_mark(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.open_changes_mark(p_user text, p_secret text) RETURNS bigint
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_mark bigint;
BEGIN
    SELECT CASE WHEN s.is_called THEN s.last_value ELSE 0 END INTO v_mark FROM screenmates.open_change_seq s;
    RETURN v_mark;
END $$;


--
-- Name: open_participants(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.open_participants(p_user text, p_secret text) RETURNS TABLE(challenge_id text, display_name text, state text, days_kept bigint, joined_at bigint, decided_at bigint, is_me boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY SELECT p.challenge_id::text, p.display_name, p.state, p.days_kept, p.joined_at, p.decided_at,
        p.user_id = v_user
        FROM screenmates.open_participant p ORDER BY p.challenge_id, p.joined_at, p.name_key;
END $$;


--
-- Name: own_machine(text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.own_machine(p_user text, p_machine text) RETURNS screenmates.machine
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_machine screenmates.machine%ROWTYPE;
    v_now bigint := screenmates.server_ms();
BEGIN
    PERFORM screenmates.check_machine(p_machine, NULL);
    IF p_machine = 'first' THEN
        RETURN screenmates.first_machine(p_user);
    END IF;
    v_machine := screenmates.machine_of(p_user, p_machine);
    IF v_machine.last_seen < v_now - 60000 THEN
        UPDATE screenmates.machine m SET last_seen = v_now WHERE m.user_id = p_user AND m.machine_id = p_machine
            RETURNING * INTO v_machine;
    END IF;
    RETURN v_machine;
END $$;


--
-- Name: pending_claims(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.pending_claims() RETURNS TABLE(user_id text, names text, role_name text, fingerprint text, claimed_at timestamp with time zone, claimants bigint)
    LANGUAGE sql STABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT c.user_id::text,
        (SELECT string_agg(m.display_name || ' in ' || m.code, ', ' ORDER BY m.code)
            FROM screenmates.member m WHERE m.user_id = c.user_id),
        c.role_name::text, encode(substr(c.secret_hash, 1, 4), 'hex'), c.claimed_at,
        (SELECT count(*) FROM screenmates.identity_claim x WHERE x.user_id = c.user_id)
    FROM screenmates.identity_claim c ORDER BY c.user_id, c.claimed_at
$$;


--
-- Name: store_policy; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.store_policy (
    only_row boolean DEFAULT true NOT NULL,
    members_choose_clock boolean DEFAULT false NOT NULL,
    members_per_group integer DEFAULT 10000 NOT NULL,
    groups_per_member integer DEFAULT 10 NOT NULL,
    groups_created_per_day integer DEFAULT 10 NOT NULL,
    running_challenges_per_group integer DEFAULT 50 NOT NULL,
    challenges_shared_per_day integer DEFAULT 10 NOT NULL,
    new_members_per_login_per_day integer DEFAULT 200 NOT NULL,
    open_challenges_running integer DEFAULT 100 NOT NULL,
    open_joins_per_member_per_day integer DEFAULT 20 NOT NULL,
    members_per_login integer DEFAULT 1000 NOT NULL,
    wrong_codes_per_login_per_hour integer DEFAULT 60 NOT NULL,
    claims_per_login integer DEFAULT 5 NOT NULL,
    notify_queue_limit real DEFAULT 0.5 NOT NULL,
    challenges_per_group integer DEFAULT 200 NOT NULL,
    challenges_joined_per_member integer DEFAULT 50 NOT NULL,
    participants_per_challenge integer DEFAULT 100 NOT NULL,
    groups_created_per_login_per_day integer DEFAULT 20 NOT NULL,
    machines_per_member integer DEFAULT 4 NOT NULL,
    machines_kept_per_member integer DEFAULT 16 NOT NULL,
    CONSTRAINT store_policy_challenges_joined_per_member_check CHECK ((challenges_joined_per_member >= 1)),
    CONSTRAINT store_policy_challenges_per_group_check CHECK ((challenges_per_group >= 1)),
    CONSTRAINT store_policy_challenges_shared_per_day_check CHECK ((challenges_shared_per_day >= 1)),
    CONSTRAINT store_policy_claims_per_login_check CHECK ((claims_per_login >= 1)),
    CONSTRAINT store_policy_groups_created_per_day_check CHECK ((groups_created_per_day >= 1)),
    CONSTRAINT store_policy_groups_created_per_login_per_day_check CHECK ((groups_created_per_login_per_day >= 1)),
    CONSTRAINT store_policy_groups_per_member_check CHECK ((groups_per_member >= 1)),
    CONSTRAINT store_policy_machines_kept_per_member_check CHECK ((machines_kept_per_member >= 1)),
    CONSTRAINT store_policy_machines_per_member_check CHECK ((machines_per_member >= 1)),
    CONSTRAINT store_policy_members_per_group_check CHECK ((members_per_group >= 1)),
    CONSTRAINT store_policy_members_per_login_check CHECK ((members_per_login >= 1)),
    CONSTRAINT store_policy_new_members_per_login_per_day_check CHECK ((new_members_per_login_per_day >= 1)),
    CONSTRAINT store_policy_notify_queue_limit_check CHECK (((notify_queue_limit >= (0)::double precision) AND (notify_queue_limit <= (1)::double precision))),
    CONSTRAINT store_policy_only_row_check CHECK (only_row),
    CONSTRAINT store_policy_open_challenges_running_check CHECK ((open_challenges_running >= 1)),
    CONSTRAINT store_policy_open_joins_per_member_per_day_check CHECK ((open_joins_per_member_per_day >= 1)),
    CONSTRAINT store_policy_participants_per_challenge_check CHECK ((participants_per_challenge >= 1)),
    CONSTRAINT store_policy_running_challenges_per_group_check CHECK ((running_challenges_per_group >= 1)),
    CONSTRAINT store_policy_wrong_codes_per_login_per_hour_check CHECK ((wrong_codes_per_login_per_hour >= 5))
);


--
-- Name: policy(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.policy() RETURNS screenmates.store_policy
    LANGUAGE sql STABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT p FROM screenmates.store_policy p
$$;


--
-- Name: public_ranking(text, text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.public_ranking(p_user text, p_secret text, p_limit bigint) RETURNS TABLE(display_name text, coins bigint, badges bigint, is_me boolean, total bigint, my_rank bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN QUERY
    WITH ranked AS (
        SELECT s.user_id, s.display_name, s.coins, s.badges,
            rank() OVER (ORDER BY s.coins DESC, s.badges DESC) AS place,
            row_number() OVER (ORDER BY s.coins DESC, s.badges DESC, lower(s.display_name) COLLATE "C",
                s.display_name COLLATE "C", s.user_id) AS position
        FROM screenmates.coin_standing s
        WHERE s.is_public AND EXISTS (SELECT 1 FROM screenmates.member m WHERE m.user_id = s.user_id)
    )
    SELECT r.display_name, r.coins, r.badges, r.user_id = v_user, (SELECT count(*) FROM ranked),
        (SELECT x.place FROM ranked x WHERE x.user_id = v_user)
    FROM ranked r WHERE r.position <= greatest(least(coalesce(p_limit, 1), 1000), 1) ORDER BY r.position;
END $$;


--
-- Name: publish_open_challenge(text, text, text, text, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.publish_open_challenge(p_user text, p_secret text, p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint, p_penalty bigint, p_starts_at bigint, p_now bigint) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_at bigint := screenmates.call_ms(p_now);
BEGIN
    IF NOT screenmates.caller_owns_store() THEN
        RAISE EXCEPTION USING ERRCODE = 'SMOWN',
            MESSAGE = 'Only the group store''s owner may publish a challenge open to all.';
    END IF;
    PERFORM screenmates.check_challenge(p_id, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at);
    LOCK TABLE screenmates.open_challenge IN SHARE ROW EXCLUSIVE MODE;
    IF (SELECT count(*) FROM screenmates.open_challenge c WHERE c.first_day + c.days > screenmates.day_of(v_at))
        >= (screenmates.policy()).open_challenges_running
    THEN
        PERFORM screenmates.quota('The store has as many open challenges running as it allows; let one end first.');
    END IF;
    INSERT INTO screenmates.open_challenge (
        id, published_by, rule, first_day, days, reward, penalty, starts_at, published_at)
    VALUES (p_id, v_user, p_rule, p_first_day, p_days, p_reward, p_penalty, p_starts_at, v_at)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'exists';
    END IF;
    PERFORM nextval('screenmates.open_change_seq');
    RETURN 'published';
END $$;


--
-- Name: quota(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.quota(p_message text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'SMQTA', MESSAGE = p_message;
END $$;


--
-- Name: record_failed_attempt(text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.record_failed_attempt(p_user text, p_now bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    DELETE FROM screenmates.failed_attempt f WHERE f.logged_at < clock_timestamp() - interval '1 day';
    INSERT INTO screenmates.failed_attempt (user_id, at, role_name) VALUES (p_user, p_now, session_user);
END $$;


--
-- Name: refuse(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.refuse(p_message text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    RAISE EXCEPTION USING ERRCODE = 'SMVAL', MESSAGE = p_message;
END $$;


--
-- Name: rename_machine(text, text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.rename_machine(p_user text, p_secret text, p_machine text, p_name text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_machine screenmates.machine%ROWTYPE;
BEGIN
    PERFORM screenmates.check_machine(p_machine, p_name);
    IF p_name IS NULL THEN
        PERFORM screenmates.refuse('Give the machine a name.');
    END IF;
    PERFORM 1 FROM screenmates.identity d WHERE d.user_id = v_user FOR UPDATE;
    v_machine := screenmates.machine_of(v_user, p_machine);
    IF v_machine.name = p_name THEN
        RETURN false;
    END IF;
    IF EXISTS (SELECT 1 FROM screenmates.machine m WHERE m.user_id = v_user AND m.machine_id <> p_machine
        AND m.retired_at IS NULL AND lower(m.name) = lower(p_name))
    THEN
        RAISE EXCEPTION USING ERRCODE = 'SMDNM', MESSAGE = 'Another of your machines has this name.', DETAIL = p_name;
    END IF;
    UPDATE screenmates.machine m SET name = p_name WHERE m.user_id = v_user AND m.machine_id = p_machine;
    RETURN true;
END $$;


--
-- Name: report_open_participant(text, text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.report_open_participant(p_user text, p_secret text, p_id text, p_state text, p_days bigint, p_decided_at bigint) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_state text;
    v_days bigint;
    v_challenge screenmates.open_challenge%ROWTYPE;
    v_last bigint := screenmates.last_possible_today();
BEGIN
    IF p_state IS NULL OR p_state NOT IN ('in', 'finished', 'failed', 'forfeited') THEN
        PERFORM screenmates.refuse('A participant is in, finished, failed or forfeited.');
    END IF;
    IF p_days IS NULL OR p_days NOT BETWEEN 0 AND 365 THEN
        PERFORM screenmates.refuse('Days kept are 0 to 365.');
    END IF;
    IF p_decided_at IS NOT NULL AND NOT screenmates.is_instant(p_decided_at) THEN
        PERFORM screenmates.refuse('A participant''s decision time must be a real instant.');
    END IF;
    SELECT * INTO v_challenge FROM screenmates.open_challenge c WHERE c.id = p_id;
    IF NOT FOUND THEN
        RETURN 'no-challenge';
    END IF;
    SELECT p.state, p.days_kept INTO v_state, v_days FROM screenmates.open_participant p
        WHERE p.challenge_id = p_id AND p.user_id = v_user FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'not-participant';
    END IF;
    IF p_days > v_challenge.days OR (v_last IS NOT NULL AND p_days > greatest(v_last - v_challenge.first_day + 1, 0)) THEN
        PERFORM screenmates.refuse('More days kept than the challenge has run.');
    END IF;
    IF p_state = 'finished' AND v_last IS NOT NULL AND v_last < v_challenge.first_day + v_challenge.days - 1 THEN
        PERFORM screenmates.refuse('A challenge is finished only once its last day has come.');
    END IF;
    IF v_state <> 'in' OR (p_state = 'in' AND p_days <= v_days) THEN
        RETURN 'unchanged';
    END IF;
    IF p_state = 'in' THEN
        UPDATE screenmates.open_participant p SET days_kept = p_days
            WHERE p.challenge_id = p_id AND p.user_id = v_user;
    ELSE
        UPDATE screenmates.open_participant p SET state = p_state, days_kept = p_days, decided_at = p_decided_at
            WHERE p.challenge_id = p_id AND p.user_id = v_user;
    END IF;
    PERFORM nextval('screenmates.open_change_seq');
    RETURN 'stored';
END $$;


--
-- Name: report_participant(text, text, text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.report_participant(p_user text, p_secret text, p_code text, p_id text, p_state text, p_days bigint, p_decided_at bigint) RETURNS text
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_state text;
    v_days bigint;
    v_challenge screenmates.group_challenge%ROWTYPE;
    v_last bigint := screenmates.last_possible_today();
BEGIN
    IF p_state IS NULL OR p_state NOT IN ('in', 'finished', 'failed', 'forfeited') THEN
        PERFORM screenmates.refuse('A participant is in, finished, failed or forfeited.');
    END IF;
    IF p_days IS NULL OR p_days NOT BETWEEN 0 AND 365 THEN
        PERFORM screenmates.refuse('Days kept are 0 to 365.');
    END IF;
    IF p_decided_at IS NOT NULL AND NOT screenmates.is_instant(p_decided_at) THEN
        PERFORM screenmates.refuse('A participant''s decision time must be a real instant.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN 'unknown';
    END IF;
    SELECT * INTO v_challenge FROM screenmates.group_challenge c WHERE c.code = p_code AND c.id = p_id;
    IF NOT FOUND THEN
        RETURN 'no-challenge';
    END IF;
    SELECT p.state, p.days_kept INTO v_state, v_days FROM screenmates.challenge_participant p
        WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
    IF NOT FOUND THEN
        RETURN 'not-participant';
    END IF;
    IF p_days > v_challenge.days OR (v_last IS NOT NULL AND p_days > greatest(v_last - v_challenge.first_day + 1, 0)) THEN
        PERFORM screenmates.refuse('More days kept than the challenge has run.');
    END IF;
    IF p_state = 'finished' AND v_last IS NOT NULL AND v_last < v_challenge.first_day + v_challenge.days - 1 THEN
        PERFORM screenmates.refuse('A challenge is finished only once its last day has come.');
    END IF;
    IF v_state <> 'in' OR (p_state = 'in' AND p_days <= v_days) THEN
        RETURN 'unchanged';
    END IF;
    IF p_state = 'in' THEN
        UPDATE screenmates.challenge_participant p SET days_kept = p_days
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
    ELSE
        UPDATE screenmates.challenge_participant p
            SET state = p_state, days_kept = p_days, decided_at = p_decided_at
            WHERE p.code = p_code AND p.challenge_id = p_id AND p.user_id = v_user;
    END IF;
    PERFORM screenmates.touch(p_code);
    RETURN 'stored';
END $$;


--
-- Name: report_standing(text, text, text, bigint, bigint, boolean, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.report_standing(p_user text, p_secret text, p_name text, p_coins bigint, p_badges bigint, p_public boolean, p_version bigint, p_now bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
    v_codes text[];
    v_code text;
BEGIN
    PERFORM screenmates.name_key(p_name);
    IF p_coins IS NULL OR p_badges IS NULL OR p_coins NOT BETWEEN 0 AND 1000000000 OR p_badges NOT BETWEEN 0 AND 1000 THEN
        PERFORM screenmates.refuse('Coins are 0 to 10^9 and badges 0 to 1000.');
    END IF;
    IF p_public IS NULL OR NOT screenmates.is_instant(p_now) THEN
        PERFORM screenmates.refuse('A standing says whether it is public and when it was made.');
    END IF;
    PERFORM screenmates.check_version(p_version);
    v_codes := screenmates.lock_my_groups(v_user);
    INSERT INTO screenmates.coin_standing AS s (user_id, display_name, coins, badges, is_public, version, updated_at)
        VALUES (v_user, p_name, p_coins, p_badges, p_public, p_version, screenmates.call_ms(p_now))
        ON CONFLICT (user_id) DO UPDATE SET display_name = excluded.display_name, coins = excluded.coins,
            badges = excluded.badges, is_public = excluded.is_public, version = excluded.version,
            updated_at = excluded.updated_at
        WHERE excluded.version > s.version;
    IF NOT FOUND THEN
        RETURN false;
    END IF;
    FOREACH v_code IN ARRAY v_codes LOOP
        PERFORM screenmates.touch(v_code);
    END LOOP;
    RETURN true;
END $$;


--
-- Name: retain_challenges(text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.retain_challenges(p_code text, p_today bigint) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_from bigint := screenmates.retained_from(p_today);
    v_removed bigint;
BEGIN
    DELETE FROM screenmates.challenge_participant p
        USING screenmates.group_challenge c
        WHERE p.code = p_code AND c.code = p_code AND c.id = p.challenge_id AND c.first_day + c.days <= v_from;
    DELETE FROM screenmates.group_challenge c WHERE c.code = p_code AND c.first_day + c.days <= v_from;
    GET DIAGNOSTICS v_removed = ROW_COUNT;
    RETURN v_removed;
END $$;


--
-- Name: retain_day_totals(text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.retain_day_totals(p_code text, p_today bigint) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_from bigint := screenmates.retained_from(p_today);
BEGIN
    DELETE FROM screenmates.day_total d
        WHERE d.code = p_code AND d.date < v_from AND NOT EXISTS (
            SELECT 1 FROM screenmates.week_result r
            WHERE r.code = p_code AND r.user_id = d.user_id AND r.status = 'pending'
                AND d.date BETWEEN r.week AND r.week + 6);
    DELETE FROM screenmates.machine_day_total d
        WHERE d.code = p_code AND d.date < v_from AND NOT EXISTS (
            SELECT 1 FROM screenmates.week_result r
            WHERE r.code = p_code AND r.user_id = d.user_id AND r.status = 'pending'
                AND d.date BETWEEN r.week AND r.week + 6);
    -- A removed machine none of whose days is kept any more, and whose today is over, is let go:
    -- it no longer counts against its member's machines kept.
    DELETE FROM screenmates.machine c
        WHERE c.user_id IN (SELECT m.user_id FROM screenmates.member m WHERE m.code = p_code)
            AND c.retired_at IS NOT NULL AND coalesce(c.day, p_today - 2) < p_today - 1
            AND NOT EXISTS (SELECT 1 FROM screenmates.machine_day_total t
                WHERE t.user_id = c.user_id AND t.machine_id = c.machine_id);
END $$;


--
-- Name: retained_from(bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.retained_from(p_today bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT ((date_trunc('month', date '1970-01-01' + p_today::integer) - interval '1 month')::date
        - date '1970-01-01')::bigint
$$;


--
-- Name: retire_machine(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.retire_machine(p_user text, p_secret text, p_machine text) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    PERFORM screenmates.check_machine(p_machine, NULL);
    PERFORM 1 FROM screenmates.identity d WHERE d.user_id = v_user FOR UPDATE;
    UPDATE screenmates.machine m SET retired_at = screenmates.server_ms()
        WHERE m.user_id = v_user AND m.machine_id = p_machine AND m.retired_at IS NULL;
    IF FOUND THEN
        RETURN true;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM screenmates.machine m WHERE m.user_id = v_user AND m.machine_id = p_machine) THEN
        RAISE EXCEPTION USING ERRCODE = 'SMDEV', MESSAGE = 'The store does not know this machine of yours.',
            DETAIL = p_machine;
    END IF;
    RETURN false;
END $$;


--
-- Name: retry_after(text, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.retry_after(p_user text, p_now bigint) RETURNS bigint
    LANGUAGE plpgsql STABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_recent bigint[];
    v_logged timestamptz[];
    v_count integer;
    v_limit integer;
BEGIN
    SELECT coalesce(array_agg(f.at ORDER BY f.at), '{}') INTO v_recent FROM screenmates.failed_attempt f
        WHERE f.user_id = p_user AND f.at > p_now - 600000 AND f.at <= p_now;
    v_count := cardinality(v_recent);
    IF v_count >= 5 THEN
        RETURN least(greatest(ceil((v_recent[v_count - 4] + 600000 - p_now) / 1000.0), 1), 600)::bigint;
    END IF;
    SELECT coalesce(array_agg(f.logged_at ORDER BY f.logged_at), '{}') INTO v_logged FROM screenmates.failed_attempt f
        WHERE f.user_id = p_user AND f.logged_at > clock_timestamp() - interval '1 hour';
    v_count := cardinality(v_logged);
    IF v_count >= 20 THEN
        RETURN least(greatest(ceil(extract(epoch FROM
            v_logged[v_count - 19] + interval '1 hour' - clock_timestamp())), 1), 3600)::bigint;
    END IF;
    IF screenmates.caller_owns_store()
        OR EXISTS (SELECT 1 FROM screenmates.shared_login s WHERE s.role_name = session_user)
    THEN
        RETURN NULL;
    END IF;
    v_limit := (screenmates.policy()).wrong_codes_per_login_per_hour;
    SELECT coalesce(array_agg(f.logged_at ORDER BY f.logged_at), '{}') INTO v_logged FROM screenmates.failed_attempt f
        WHERE f.role_name = session_user AND f.logged_at > clock_timestamp() - interval '1 hour';
    v_count := cardinality(v_logged);
    IF v_count >= v_limit THEN
        RETURN least(greatest(ceil(extract(epoch FROM
            v_logged[v_count - v_limit + 1] + interval '1 hour' - clock_timestamp())), 1), 3600)::bigint;
    END IF;
    RETURN NULL;
END $$;


--
-- Name: schema_level(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.schema_level() RETURNS TABLE(version integer, compatible_from integer)
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
    SELECT m.version, m.compatible_from FROM screenmates.schema_migration m ORDER BY m.version DESC LIMIT 1
$$;


--
-- Name: schema_version(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.schema_version() RETURNS integer
    LANGUAGE sql STABLE SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
    SELECT coalesce(
        (SELECT m.compatible_from FROM screenmates.schema_migration m ORDER BY m.version DESC LIMIT 1), 0)
$$;


--
-- Name: server_ms(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.server_ms() RETURNS bigint
    LANGUAGE sql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint
$$;


--
-- Name: set_settlement_rules(text, text, text, integer, bigint, bigint, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.set_settlement_rules(p_user text, p_secret text, p_code text, p_week_start integer, p_kept bigint, p_over bigint, p_missing text) RETURNS text
    LANGUAGE sql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
    SELECT c.outcome
    FROM screenmates.change_settlement_rules(p_user, p_secret, p_code, p_week_start, p_kept, p_over, p_missing, NULL) c
$$;


--
-- Name: settle_weeks(text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.settle_weeks(p_user text, p_secret text, p_code text, p_today bigint, p_now bigint) RETURNS TABLE(known boolean, settled bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_today bigint := least(p_today, floor((extract(epoch FROM clock_timestamp()) + 50400) / 86400)::bigint);
    v_user text;
    v_at bigint;
    v_group screenmates.group_info%ROWTYPE;
    v_from bigint;
    v_first bigint;
    v_weeks bigint;
    v_new bigint;
    v_new_final bigint;
    v_changed bigint;
    v_changed_final bigint;
    v_removed bigint;
    v_change screenmates.rules_change%ROWTYPE;
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
    v_user := screenmates.caller(p_user, p_secret);
    v_at := screenmates.call_ms(p_now);
    IF p_today IS NULL OR p_today NOT BETWEEN -719162 AND 2932896 THEN
        PERFORM screenmates.refuse('A date is in the years 1 to 9999.');
    END IF;
    IF NOT screenmates.lock_group(v_user, p_code) THEN
        RETURN QUERY SELECT false, 0::bigint;
        RETURN;
    END IF;
    SELECT * INTO v_group FROM screenmates.group_info g WHERE g.code = p_code;
    v_from := coalesce(v_group.settle_from, screenmates.day_of(v_group.created_at));
    v_first := screenmates.week_first_day(v_from, v_group.week_start);
    v_weeks := greatest((screenmates.week_first_day(v_today, v_group.week_start) - v_first) / 7, 0);

    -- 1. Closed weeks without a result.
    WITH counted AS (
        SELECT w.week, m.user_id, t.kept, t.over, (w.week + 7 - f.first) - t.kept - t.over AS missing,
            r.kept_day_coins AS kept_coins, r.over_day_coins AS over_coins, r.missing_days AS rule
        FROM generate_series(greatest(v_weeks - screenmates.weeks_per_settlement(), 0), v_weeks - 1) AS i
        CROSS JOIN LATERAL (SELECT v_first + 7 * i AS week) w
        CROSS JOIN LATERAL (
            SELECT x.kept_day_coins, x.over_day_coins, x.missing_days FROM (
                SELECT c.from_day, c.kept_day_coins, c.over_day_coins, c.missing_days
                FROM screenmates.rules_change c WHERE c.code = p_code AND c.from_day <= w.week
                UNION ALL
                SELECT NULL, v_group.kept_day_coins, v_group.over_day_coins, v_group.missing_days
            ) x ORDER BY x.from_day DESC NULLS LAST LIMIT 1
        ) r
        JOIN screenmates.member m ON m.code = p_code
        CROSS JOIN LATERAL (SELECT greatest(w.week, v_from, screenmates.day_of(m.joined_at)) AS first) f
        CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE d.vice_blocks <= d.goal_blocks) AS kept,
                count(*) FILTER (WHERE d.vice_blocks > d.goal_blocks) AS over
            FROM screenmates.day_total d
            WHERE d.code = p_code AND d.user_id = m.user_id AND d.date BETWEEN f.first AND w.week + 6
        ) t
        WHERE f.first <= w.week + 6 AND NOT EXISTS (
            SELECT 1 FROM screenmates.week_result x
            WHERE x.code = p_code AND x.user_id = m.user_id AND x.week = w.week)
    ), inserted AS (
        INSERT INTO screenmates.week_result (code, user_id, week, status, kept_days, over_days, missing_days, coins,
            rule, kept_day_coins, over_day_coins, settled_at)
        SELECT p_code, c.user_id, c.week,
            CASE WHEN c.missing > 0 AND c.rule = 'pending' THEN 'pending' ELSE 'settled' END,
            c.kept, c.over, c.missing,
            CASE WHEN c.missing > 0 AND c.rule = 'pending' THEN 0
                ELSE screenmates.week_coins(c.kept, c.over, c.missing, c.kept_coins, c.over_coins)
            END,
            c.rule, c.kept_coins, c.over_coins,
            CASE WHEN c.missing > 0 AND c.rule = 'pending' THEN NULL ELSE v_at END
        FROM counted c
        ON CONFLICT DO NOTHING
        RETURNING status
    )
    SELECT count(*), count(*) FILTER (WHERE status = 'settled') INTO v_new, v_new_final FROM inserted;

    -- 2. Pending weeks, counted again.
    WITH recounted AS (
        SELECT r.user_id, r.week, t.kept, t.over, (r.week + 7 - f.first) - t.kept - t.over AS missing
        FROM screenmates.week_result r
        JOIN screenmates.member m ON m.code = r.code AND m.user_id = r.user_id
        CROSS JOIN LATERAL (SELECT greatest(r.week, v_from, screenmates.day_of(m.joined_at)) AS first) f
        CROSS JOIN LATERAL (
            SELECT count(*) FILTER (WHERE d.vice_blocks <= d.goal_blocks) AS kept,
                count(*) FILTER (WHERE d.vice_blocks > d.goal_blocks) AS over
            FROM screenmates.day_total d
            WHERE d.code = p_code AND d.user_id = r.user_id AND d.date BETWEEN f.first AND r.week + 6
        ) t
        WHERE r.code = p_code AND r.status = 'pending'
    ), updated AS (
        UPDATE screenmates.week_result r SET
            status = CASE WHEN c.missing = 0 THEN 'settled' ELSE 'pending' END,
            kept_days = c.kept, over_days = c.over, missing_days = c.missing,
            coins = CASE WHEN c.missing = 0
                THEN screenmates.week_coins(c.kept, c.over, c.missing, r.kept_day_coins, r.over_day_coins) ELSE 0 END,
            settled_at = CASE WHEN c.missing = 0 THEN v_at ELSE NULL END
        FROM recounted c
        WHERE r.code = p_code AND r.user_id = c.user_id AND r.week = c.week
            AND (c.missing = 0 OR r.kept_days <> c.kept OR r.over_days <> c.over OR r.missing_days <> c.missing)
        RETURNING r.status
    )
    SELECT count(*), count(*) FILTER (WHERE status = 'settled') INTO v_changed, v_changed_final FROM updated;

    -- 3. What the group keeps; the group's change number moves once for all of it.
    PERFORM screenmates.retain_day_totals(p_code, v_today);
    v_removed := screenmates.retain_challenges(p_code, v_today);
    SELECT * INTO v_change FROM screenmates.rules_change c
        WHERE c.code = p_code AND c.from_day <= screenmates.week_first_day(v_today, v_group.week_start)
        ORDER BY c.from_day DESC LIMIT 1;
    IF FOUND THEN
        UPDATE screenmates.group_info g SET kept_day_coins = v_change.kept_day_coins,
            over_day_coins = v_change.over_day_coins, missing_days = v_change.missing_days
            WHERE g.code = p_code;
        DELETE FROM screenmates.rules_change c WHERE c.code = p_code AND c.from_day <= v_change.from_day;
        v_removed := v_removed + 1;
    END IF;
    IF v_new + v_changed + v_removed > 0 THEN
        PERFORM screenmates.touch(p_code);
    END IF;

    -- 4. The group's row is still locked: nothing that counts was written since it was counted.
    UPDATE screenmates.group_info g SET settled_on = v_today, settled_seq = g.settle_seq WHERE g.code = p_code;
    RETURN QUERY SELECT true, v_new_final + v_changed_final;
END $$;


--
-- Name: settlement_rules(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.settlement_rules(p_user text, p_secret text, p_code text) RETURNS TABLE(known boolean, week_start integer, kept_day_coins bigint, over_day_coins bigint, missing_days text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::integer, NULL::bigint, NULL::bigint, NULL::text;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, g.week_start, coalesce(c.kept_day_coins, g.kept_day_coins),
            coalesce(c.over_day_coins, g.over_day_coins), coalesce(c.missing_days, g.missing_days)::text
        FROM screenmates.group_info g
        LEFT JOIN LATERAL (
            SELECT * FROM screenmates.rules_change c WHERE c.code = g.code ORDER BY c.from_day DESC LIMIT 1
        ) c ON true
        WHERE g.code = p_code;
END $$;


--
-- Name: settlement_schedule(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.settlement_schedule(p_user text, p_secret text, p_code text) RETURNS TABLE(known boolean, from_day bigint, week_start integer, kept_day_coins bigint, over_day_coins bigint, missing_days text)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::bigint, NULL::integer, NULL::bigint, NULL::bigint, NULL::text;
        RETURN;
    END IF;
    RETURN QUERY
        SELECT true, NULL::bigint, g.week_start, g.kept_day_coins, g.over_day_coins, g.missing_days::text
        FROM screenmates.group_info g WHERE g.code = p_code
        UNION ALL
        (SELECT true, c.from_day, g.week_start, c.kept_day_coins, c.over_day_coins, c.missing_days::text
        FROM screenmates.rules_change c JOIN screenmates.group_info g ON g.code = c.code
        WHERE c.code = p_code ORDER BY c.from_day);
END $$;


--
-- Name: stamp_change(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_change() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    SELECT g.change_seq + 1 INTO NEW.seq FROM screenmates.group_info g WHERE g.code = NEW.code FOR UPDATE;
    NEW.seq := coalesce(NEW.seq, 0);
    RETURN NEW;
END $$;


--
-- Name: stamp_day_total_settlement(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_day_total_settlement() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_date bigint := NEW.date;
BEGIN
    IF TG_OP = 'UPDATE' THEN
        v_date := least(OLD.date, NEW.date);
    END IF;
    UPDATE screenmates.group_info g SET settle_seq = g.change_seq + 1
        WHERE g.code = NEW.code AND g.settle_seq <> g.change_seq + 1
            AND (g.settled_on IS NULL OR v_date < screenmates.week_first_day(g.settled_on, g.week_start));
    RETURN NULL;
END $$;


--
-- Name: stamp_games(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_games() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
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
END $$;


--
-- Name: stamp_open_removal(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_open_removal() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
BEGIN
    PERFORM nextval('screenmates.open_change_seq');
    RETURN NULL;
END $$;


--
-- Name: stamp_removal(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_removal() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    UPDATE screenmates.group_info g SET removed_seq = g.change_seq + 1
        WHERE g.code = OLD.code AND g.removed_seq <> g.change_seq + 1;
    RETURN NULL;
END $$;


--
-- Name: stamp_renamed_parts(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_renamed_parts() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    UPDATE screenmates.challenge_participant p SET days_kept = p.days_kept
        WHERE p.code = NEW.code AND p.user_id = NEW.user_id;
    RETURN NULL;
END $$;


--
-- Name: stamp_rules_games(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_rules_games() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    NEW.games_seq := OLD.change_seq + 1;
    RETURN NEW;
END $$;


--
-- Name: stamp_rules_settlement(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_rules_settlement() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    NEW.settle_seq := OLD.change_seq + 1;
    RETURN NEW;
END $$;


--
-- Name: stamp_settlement(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_settlement() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
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
END $$;


--
-- Name: stamp_standing(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_standing() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    UPDATE screenmates.member m SET version = m.version WHERE m.user_id = NEW.user_id;
    RETURN NULL;
END $$;


--
-- Name: stamp_standing_games(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.stamp_standing_games() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    UPDATE screenmates.group_info g SET games_seq = g.change_seq + 1
        FROM screenmates.member m
        WHERE m.user_id = NEW.user_id AND g.code = m.code AND g.games_seq <> g.change_seq + 1;
    RETURN NULL;
END $$;


--
-- Name: store_days_of(text, text, text, bigint[], bigint[], bigint[], bigint[], bigint[]); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.store_days_of(p_user text, p_machine text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[], p_productive bigint[]) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
BEGIN
    IF greatest(cardinality(p_dates), cardinality(p_vice), cardinality(p_goals), cardinality(p_versions),
        cardinality(p_productive)) > 1000
    THEN
        PERFORM screenmates.refuse('At most 1000 day totals are sent at once.');
    END IF;
    PERFORM screenmates.check_machine(p_machine, NULL);
    IF NOT screenmates.lock_group(p_user, p_code) THEN
        RETURN false;
    END IF;
    PERFORM screenmates.own_machine(p_user, p_machine);
    IF screenmates.store_machine_days(p_code, p_user, p_machine, p_dates, p_vice, p_goals, p_versions,
        p_productive) > 0
    THEN
        PERFORM screenmates.touch(p_code);
    END IF;
    RETURN true;
END $$;


--
-- Name: store_machine_days(text, text, text, bigint[], bigint[], bigint[], bigint[], bigint[]); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.store_machine_days(p_code text, p_user text, p_machine text, p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[], p_productive bigint[]) RETURNS bigint
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_first bigint;
    v_last bigint := screenmates.last_possible_today();
    v_dates bigint[];
    v_count bigint;
BEGIN
    IF NOT screenmates.members_choose_clock() THEN
        SELECT screenmates.day_of(m.joined_at) - 2 INTO v_first FROM screenmates.member m
            WHERE m.code = p_code AND m.user_id = p_user;
    END IF;
    WITH written AS (
        INSERT INTO screenmates.machine_day_total AS t (code, user_id, date, machine_id, vice_blocks, goal_blocks,
            version, productive_blocks)
        SELECT DISTINCT ON (x.date) p_code, p_user, x.date, p_machine, x.vice, x.goal, x.version, x.productive
        FROM unnest(p_dates, p_vice, p_goals, p_versions, coalesce(p_productive, '{}'::bigint[])) WITH ORDINALITY
            AS x(date, vice, goal, version, productive, ord)
        WHERE x.date BETWEEN -719162 AND 2932896 AND x.date >= coalesce(v_first, x.date)
            AND x.date <= coalesce(v_last, x.date)
            AND x.vice BETWEEN 0 AND 1440 AND x.goal BETWEEN 0 AND 96 AND x.version BETWEEN 1 AND 9007199254740992
            AND (x.productive IS NULL OR x.productive BETWEEN 0 AND 1440)
        ORDER BY x.date, x.version DESC, x.ord
        ON CONFLICT (code, user_id, date, machine_id) DO UPDATE SET
            vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks, version = excluded.version,
            productive_blocks = excluded.productive_blocks
        WHERE excluded.version > t.version
        RETURNING t.date
    )
    SELECT array_agg(w.date) INTO v_dates FROM written w;
    IF v_dates IS NULL THEN
        RETURN 0;
    END IF;
    INSERT INTO screenmates.day_total AS d (code, user_id, date, vice_blocks, goal_blocks, version)
    SELECT p_code, p_user, t.date, least(sum(t.vice_blocks), 1440)::bigint, max(t.goal_blocks), max(t.version)
    FROM screenmates.machine_day_total t
    WHERE t.code = p_code AND t.user_id = p_user AND t.date = ANY (v_dates)
    GROUP BY t.date
    ON CONFLICT (code, user_id, date) DO UPDATE SET
        vice_blocks = excluded.vice_blocks, goal_blocks = excluded.goal_blocks, version = excluded.version
    WHERE (d.vice_blocks, d.goal_blocks, d.version)
        IS DISTINCT FROM (excluded.vice_blocks, excluded.goal_blocks, excluded.version);
    GET DIAGNOSTICS v_count = ROW_COUNT;
    RETURN v_count;
END $$;


--
-- Name: store_profile_of(text, text, text, bigint, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.store_profile_of(p_user text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_key text := screenmates.name_key(p_name);
    v_codes text[];
    v_stored record;
BEGIN
    PERFORM screenmates.check_profile(p_blocks, p_day, p_streak, p_last_active, p_last_updated, p_version,
        p_productive_today);
    PERFORM screenmates.check_machine(p_machine, NULL);
    v_codes := screenmates.lock_my_groups(p_user);
    v_stored := screenmates.machine_profile(p_user, p_machine, p_name, p_blocks, p_day, p_streak, p_version,
        p_productive_today);
    IF NOT v_stored.stored THEN
        RETURN false;
    END IF;
    PERFORM screenmates.apply_profile(v_codes, p_user, p_name, v_key, v_stored.renamed, p_streak, p_last_active,
        p_last_updated, p_version);
    RETURN true;
END $$;


--
-- Name: touch(text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.touch(p_code text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
DECLARE
    v_channel text;
    v_seq bigint;
BEGIN
    UPDATE screenmates.group_info SET change_seq = change_seq + 1 WHERE code = p_code
        RETURNING channel, change_seq INTO v_channel, v_seq;
    IF v_channel IS NOT NULL AND NOT screenmates.notices_skipped() THEN
        PERFORM pg_notify(v_channel, v_seq::text);
    END IF;
END $$;


--
-- Name: upsert_day_totals(text, text, text, bigint[], bigint[], bigint[], bigint[]); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.upsert_day_totals(p_user text, p_secret text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[]) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN screenmates.store_days_of(v_user, 'first', p_code, p_dates, p_vice, p_goals, p_versions, NULL);
END $$;


--
-- Name: upsert_machine_days(text, text, text, text, bigint[], bigint[], bigint[], bigint[], bigint[]); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.upsert_machine_days(p_user text, p_secret text, p_machine text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[], p_productive bigint[] DEFAULT NULL::bigint[]) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN screenmates.store_days_of(v_user, p_machine, p_code, p_dates, p_vice, p_goals, p_versions,
        p_productive);
END $$;


--
-- Name: upsert_machine_profile(text, text, text, text, bigint, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.upsert_machine_profile(p_user text, p_secret text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint DEFAULT NULL::bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN screenmates.store_profile_of(v_user, p_machine, p_name, p_blocks, p_day, p_streak, p_last_active,
        p_last_updated, p_version, p_productive_today);
END $$;


--
-- Name: upsert_profile(text, text, text, bigint, bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.upsert_profile(p_user text, p_secret text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint) RETURNS boolean
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    RETURN screenmates.store_profile_of(v_user, 'first', p_name, p_blocks, p_day, p_streak, p_last_active,
        p_last_updated, p_version, NULL);
END $$;


--
-- Name: verified_marks(text, text, text); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.verified_marks(p_user text, p_secret text, p_code text) RETURNS TABLE(change_seq bigint, removed_seq bigint)
    LANGUAGE sql STABLE
    AS $$
    SELECT g.change_seq, g.removed_seq
    FROM screenmates.identity d
    JOIN screenmates.member m ON m.user_id = d.user_id AND m.code = p_code
    JOIN screenmates.group_info g ON g.code = p_code
    WHERE d.user_id = p_user AND d.role_name = session_user
        AND d.secret_hash = sha256(convert_to(p_secret, 'UTF8'))
$$;


--
-- Name: week_coins(bigint, bigint, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.week_coins(p_kept bigint, p_over bigint, p_missing bigint, p_kept_day_coins bigint, p_over_day_coins bigint) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT p_kept * p_kept_day_coins - (p_over + p_missing) * p_over_day_coins
$$;


--
-- Name: week_first_day(bigint, integer); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.week_first_day(p_day bigint, p_start integer) RETURNS bigint
    LANGUAGE sql IMMUTABLE
    SET search_path TO 'screenmates', 'pg_temp'
    AS $$
    SELECT p_day - (((((p_day + 3) % 7) + 7) % 7 + 1 - p_start + 7) % 7)
$$;


--
-- Name: week_results(text, text, text, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.week_results(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint) RETURNS TABLE(known boolean, user_id text, week bigint, status text, kept_days bigint, over_days bigint, missing_days bigint, coins bigint, rule text, settled_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::text, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, r.user_id::text, r.week, r.status::text, r.kept_days, r.over_days, r.missing_days,
        r.coins, r.rule::text, r.settled_at
        FROM screenmates.week_result r
        WHERE r.code = p_code AND r.week BETWEEN p_first AND p_last ORDER BY r.week, r.user_id;
END $$;


--
-- Name: week_results_after(text, text, text, bigint, bigint, bigint); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.week_results_after(p_user text, p_secret text, p_code text, p_first bigint, p_last bigint, p_after bigint) RETURNS TABLE(known boolean, user_id text, week bigint, status text, kept_days bigint, over_days bigint, missing_days bigint, coins bigint, rule text, settled_at bigint)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'screenmates', 'pg_temp'
    SET lock_timeout TO '2s'
    AS $$
#variable_conflict use_column
DECLARE
    v_user text := screenmates.caller(p_user, p_secret);
BEGIN
    IF NOT screenmates.group_access(v_user, p_code) THEN
        RETURN QUERY SELECT false, NULL::text, NULL::bigint, NULL::text, NULL::bigint, NULL::bigint, NULL::bigint,
            NULL::bigint, NULL::text, NULL::bigint;
        RETURN;
    END IF;
    RETURN QUERY SELECT true, r.user_id::text, r.week, r.status::text, r.kept_days, r.over_days, r.missing_days,
        r.coins, r.rule::text, r.settled_at
        FROM screenmates.week_result r
        WHERE r.code = p_code AND r.week BETWEEN p_first AND p_last AND r.seq > coalesce(p_after, -1)
        ORDER BY r.week, r.user_id;
END $$;


--
-- Name: weeks_per_settlement(); Type: FUNCTION; Schema: screenmates; Owner: -
--

CREATE FUNCTION screenmates.weeks_per_settlement() RETURNS bigint
    LANGUAGE sql IMMUTABLE
    AS $$
    SELECT 520::bigint
$$;


--
-- Name: challenge_participant; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.challenge_participant (
    code text NOT NULL COLLATE pg_catalog."C",
    challenge_id text NOT NULL COLLATE pg_catalog."C",
    user_id text NOT NULL COLLATE pg_catalog."C",
    state text NOT NULL COLLATE pg_catalog."C",
    days_kept bigint NOT NULL,
    joined_at bigint NOT NULL,
    decided_at bigint,
    seq bigint DEFAULT 0 NOT NULL,
    CONSTRAINT challenge_participant_days_kept_check CHECK (((days_kept >= 0) AND (days_kept <= 365))),
    CONSTRAINT challenge_participant_state_check CHECK ((state = ANY (ARRAY['in'::text, 'finished'::text, 'failed'::text, 'forfeited'::text])))
);


--
-- Name: coin_standing; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.coin_standing (
    user_id text NOT NULL COLLATE pg_catalog."C",
    display_name text NOT NULL,
    coins bigint NOT NULL,
    badges bigint NOT NULL,
    is_public boolean NOT NULL,
    version bigint NOT NULL,
    updated_at bigint NOT NULL,
    CONSTRAINT coin_standing_badges_check CHECK ((badges >= 0)),
    CONSTRAINT coin_standing_coins_check CHECK ((coins >= 0)),
    CONSTRAINT coin_standing_display_name_check CHECK ((((char_length(display_name) >= 1) AND (char_length(display_name) <= 80)) AND (display_name !~ '[[:cntrl:]]'::text))),
    CONSTRAINT coin_standing_user_id_check CHECK ((user_id ~ '^[A-Za-z0-9_-]{1,64}$'::text))
);


--
-- Name: day_total; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.day_total (
    code text NOT NULL COLLATE pg_catalog."C",
    user_id text NOT NULL COLLATE pg_catalog."C",
    date bigint NOT NULL,
    vice_blocks bigint NOT NULL,
    goal_blocks bigint NOT NULL,
    version bigint NOT NULL,
    seq bigint DEFAULT 0 NOT NULL,
    CONSTRAINT day_total_date_check CHECK (((date >= '-719162'::integer) AND (date <= 2932896))),
    CONSTRAINT day_total_goal_blocks_check CHECK ((goal_blocks >= 0)),
    CONSTRAINT day_total_vice_blocks_check CHECK ((vice_blocks >= 0))
);


--
-- Name: failed_attempt; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.failed_attempt (
    user_id text NOT NULL COLLATE pg_catalog."C",
    at bigint NOT NULL,
    logged_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    role_name text COLLATE pg_catalog."C"
);


--
-- Name: group_challenge; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.group_challenge (
    code text NOT NULL COLLATE pg_catalog."C",
    id text NOT NULL COLLATE pg_catalog."C",
    creator_id text NOT NULL COLLATE pg_catalog."C",
    rule text NOT NULL,
    first_day bigint NOT NULL,
    days bigint NOT NULL,
    reward bigint NOT NULL,
    penalty bigint NOT NULL,
    starts_at bigint,
    created_at bigint NOT NULL,
    created_on timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    seq bigint DEFAULT 0 NOT NULL,
    CONSTRAINT group_challenge_days_check CHECK (((days >= 1) AND (days <= 365))),
    CONSTRAINT group_challenge_first_day_check CHECK (((first_day >= '-719162'::integer) AND (first_day <= 2932896))),
    CONSTRAINT group_challenge_id_check CHECK ((id ~ '^[a-z0-9]{4,16}$'::text)),
    CONSTRAINT group_challenge_penalty_check CHECK (((penalty >= 0) AND (penalty <= 10000))),
    CONSTRAINT group_challenge_reward_check CHECK (((reward >= 0) AND (reward <= 10000))),
    CONSTRAINT group_challenge_rule_check CHECK (((char_length(rule) >= 1) AND (char_length(rule) <= 2000)))
);


--
-- Name: group_info; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.group_info (
    code text NOT NULL COLLATE pg_catalog."C",
    daily_goal_blocks bigint NOT NULL,
    created_at bigint NOT NULL,
    change_seq bigint DEFAULT 1 NOT NULL,
    channel text DEFAULT ('screenmates_'::text || replace((gen_random_uuid())::text, '-'::text, ''::text)) NOT NULL COLLATE pg_catalog."C",
    week_start integer DEFAULT 1 NOT NULL,
    kept_day_coins bigint DEFAULT 5 NOT NULL,
    over_day_coins bigint DEFAULT 10 NOT NULL,
    missing_days text DEFAULT 'pending'::text NOT NULL COLLATE pg_catalog."C",
    settle_from bigint,
    created_by text COLLATE pg_catalog."C",
    created_on timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    removed_seq bigint DEFAULT 0 NOT NULL,
    games_seq bigint DEFAULT 0 NOT NULL,
    settle_seq bigint DEFAULT 0 NOT NULL,
    settled_seq bigint DEFAULT 0 NOT NULL,
    settled_on bigint,
    CONSTRAINT group_info_code_check CHECK ((code ~ '^[2-9A-HJ-NP-Z]{6}$'::text)),
    CONSTRAINT group_info_daily_goal_blocks_check CHECK (((daily_goal_blocks >= 1) AND (daily_goal_blocks <= 96))),
    CONSTRAINT group_info_kept_day_coins_check CHECK (((kept_day_coins >= 0) AND (kept_day_coins <= 1000))),
    CONSTRAINT group_info_missing_days_check CHECK ((missing_days = ANY (ARRAY['pending'::text, 'worst-case'::text]))),
    CONSTRAINT group_info_over_day_coins_check CHECK (((over_day_coins >= 0) AND (over_day_coins <= 1000))),
    CONSTRAINT group_info_week_start_check CHECK (((week_start >= 1) AND (week_start <= 7)))
);


--
-- Name: identity; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.identity (
    user_id text NOT NULL COLLATE pg_catalog."C",
    role_name text NOT NULL COLLATE pg_catalog."C",
    secret_hash bytea NOT NULL,
    bound_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT identity_secret_hash_check CHECK ((length(secret_hash) = 32)),
    CONSTRAINT identity_user_id_check CHECK ((user_id ~ '^[A-Za-z0-9_-]{1,64}$'::text))
);


--
-- Name: identity_claim; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.identity_claim (
    user_id text NOT NULL COLLATE pg_catalog."C",
    role_name text NOT NULL COLLATE pg_catalog."C",
    secret_hash bytea NOT NULL,
    claimed_at timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT identity_claim_secret_hash_check CHECK ((length(secret_hash) = 32))
);


--
-- Name: last_group; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.last_group (
    user_id text NOT NULL COLLATE pg_catalog."C",
    code text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: legacy_user; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.legacy_user (
    user_id text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: machine_day_total; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.machine_day_total (
    code text NOT NULL COLLATE pg_catalog."C",
    user_id text NOT NULL COLLATE pg_catalog."C",
    date bigint NOT NULL,
    machine_id text NOT NULL COLLATE pg_catalog."C",
    vice_blocks bigint NOT NULL,
    productive_blocks bigint,
    goal_blocks bigint NOT NULL,
    version bigint NOT NULL,
    CONSTRAINT machine_day_total_date_check CHECK (((date >= '-719162'::integer) AND (date <= 2932896))),
    CONSTRAINT machine_day_total_goal_blocks_check CHECK (((goal_blocks >= 0) AND (goal_blocks <= 96))),
    CONSTRAINT machine_day_total_productive_blocks_check CHECK (((productive_blocks >= 0) AND (productive_blocks <= 1440))),
    CONSTRAINT machine_day_total_version_check CHECK (((version >= 0) AND (version <= '9007199254740992'::bigint))),
    CONSTRAINT machine_day_total_vice_blocks_check CHECK (((vice_blocks >= 0) AND (vice_blocks <= 1440)))
);


--
-- Name: COLUMN machine_day_total.productive_blocks; Type: COMMENT; Schema: screenmates; Owner: -
--

COMMENT ON COLUMN screenmates.machine_day_total.productive_blocks IS 'The machine''s productive blocks that day; NULL when it said none. Read by its member only.';


--
-- Name: member; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.member (
    code text NOT NULL COLLATE pg_catalog."C",
    user_id text NOT NULL COLLATE pg_catalog."C",
    display_name text NOT NULL,
    name_key text NOT NULL COLLATE pg_catalog."C",
    blocks_today bigint NOT NULL,
    day bigint NOT NULL,
    streak bigint NOT NULL,
    last_active bigint,
    last_updated bigint NOT NULL,
    version bigint NOT NULL,
    joined_at bigint NOT NULL,
    seq bigint DEFAULT 0 NOT NULL,
    CONSTRAINT member_blocks_today_check CHECK ((blocks_today >= 0)),
    CONSTRAINT member_day_check CHECK (((day >= '-719162'::integer) AND (day <= 2932896))),
    CONSTRAINT member_display_name_check CHECK ((((char_length(display_name) >= 1) AND (char_length(display_name) <= 80)) AND (display_name !~ '[[:cntrl:]]'::text))),
    CONSTRAINT member_streak_check CHECK ((streak >= 0)),
    CONSTRAINT member_user_id_check CHECK ((user_id ~ '^[A-Za-z0-9_-]{1,64}$'::text))
);


--
-- Name: open_challenge; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.open_challenge (
    id text NOT NULL COLLATE pg_catalog."C",
    published_by text NOT NULL COLLATE pg_catalog."C",
    rule text NOT NULL,
    first_day bigint NOT NULL,
    days bigint NOT NULL,
    reward bigint NOT NULL,
    penalty bigint NOT NULL,
    starts_at bigint,
    published_at bigint NOT NULL,
    published_on timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    CONSTRAINT open_challenge_days_check CHECK (((days >= 1) AND (days <= 365))),
    CONSTRAINT open_challenge_first_day_check CHECK (((first_day >= '-719162'::integer) AND (first_day <= (2932896 - 365)))),
    CONSTRAINT open_challenge_id_check CHECK ((id ~ '^[a-z0-9]{4,16}$'::text)),
    CONSTRAINT open_challenge_penalty_check CHECK (((penalty >= 0) AND (penalty <= 10000))),
    CONSTRAINT open_challenge_reward_check CHECK (((reward >= 0) AND (reward <= 10000))),
    CONSTRAINT open_challenge_rule_check CHECK ((octet_length(rule) <= 2000))
);


--
-- Name: open_change_seq; Type: SEQUENCE; Schema: screenmates; Owner: -
--

CREATE SEQUENCE screenmates.open_change_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: open_participant; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.open_participant (
    challenge_id text NOT NULL COLLATE pg_catalog."C",
    user_id text NOT NULL COLLATE pg_catalog."C",
    display_name text NOT NULL,
    name_key text NOT NULL,
    state text NOT NULL,
    days_kept bigint NOT NULL,
    joined_at bigint NOT NULL,
    joined_on timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
    decided_at bigint,
    CONSTRAINT open_participant_days_kept_check CHECK (((days_kept >= 0) AND (days_kept <= 365))),
    CONSTRAINT open_participant_display_name_check CHECK (((char_length(display_name) >= 1) AND (char_length(display_name) <= 60))),
    CONSTRAINT open_participant_state_check CHECK ((state = ANY (ARRAY['in'::text, 'finished'::text, 'failed'::text, 'forfeited'::text])))
);


--
-- Name: rules_change; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.rules_change (
    code text NOT NULL COLLATE pg_catalog."C",
    from_day bigint NOT NULL,
    kept_day_coins bigint NOT NULL,
    over_day_coins bigint NOT NULL,
    missing_days text NOT NULL COLLATE pg_catalog."C",
    CONSTRAINT rules_change_kept_day_coins_check CHECK (((kept_day_coins >= 0) AND (kept_day_coins <= 1000))),
    CONSTRAINT rules_change_missing_days_check CHECK ((missing_days = ANY (ARRAY['pending'::text, 'worst-case'::text]))),
    CONSTRAINT rules_change_over_day_coins_check CHECK (((over_day_coins >= 0) AND (over_day_coins <= 1000)))
);


--
-- Name: schema_migration; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.schema_migration (
    version integer NOT NULL,
    summary text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL,
    compatible_from integer DEFAULT 1 NOT NULL
);


--
-- Name: shared_login; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.shared_login (
    role_name text NOT NULL COLLATE pg_catalog."C"
);


--
-- Name: week_result; Type: TABLE; Schema: screenmates; Owner: -
--

CREATE TABLE screenmates.week_result (
    code text NOT NULL COLLATE pg_catalog."C",
    user_id text NOT NULL COLLATE pg_catalog."C",
    week bigint NOT NULL,
    status text NOT NULL COLLATE pg_catalog."C",
    kept_days bigint NOT NULL,
    over_days bigint NOT NULL,
    missing_days bigint NOT NULL,
    coins bigint NOT NULL,
    rule text NOT NULL COLLATE pg_catalog."C",
    kept_day_coins bigint NOT NULL,
    over_day_coins bigint NOT NULL,
    settled_at bigint,
    seq bigint DEFAULT 0 NOT NULL,
    CONSTRAINT week_result_kept_days_check CHECK (((kept_days >= 0) AND (kept_days <= 7))),
    CONSTRAINT week_result_missing_days_check CHECK (((missing_days >= 0) AND (missing_days <= 7))),
    CONSTRAINT week_result_over_days_check CHECK (((over_days >= 0) AND (over_days <= 7))),
    CONSTRAINT week_result_rule_check CHECK ((rule = ANY (ARRAY['pending'::text, 'worst-case'::text]))),
    CONSTRAINT week_result_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'settled'::text])))
);


--
-- Name: challenge_participant challenge_participant_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.challenge_participant
    ADD CONSTRAINT challenge_participant_pkey PRIMARY KEY (code, challenge_id, user_id);


--
-- Name: coin_standing coin_standing_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.coin_standing
    ADD CONSTRAINT coin_standing_pkey PRIMARY KEY (user_id);


--
-- Name: coin_standing coin_standing_ranges; Type: CHECK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.coin_standing
    ADD CONSTRAINT coin_standing_ranges CHECK ((((coins >= 0) AND (coins <= 1000000000)) AND ((badges >= 0) AND (badges <= 1000)) AND ((version >= 0) AND (version <= '9007199254740992'::bigint)) AND ((char_length(display_name) >= 1) AND (char_length(display_name) <= 60)))) NOT VALID;


--
-- Name: day_total day_total_goal_range; Type: CHECK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.day_total
    ADD CONSTRAINT day_total_goal_range CHECK (((goal_blocks >= 0) AND (goal_blocks <= 96))) NOT VALID;


--
-- Name: day_total day_total_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.day_total
    ADD CONSTRAINT day_total_pkey PRIMARY KEY (code, user_id, date);


--
-- Name: day_total day_total_version_range; Type: CHECK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.day_total
    ADD CONSTRAINT day_total_version_range CHECK (((version >= 0) AND (version <= '9007199254740992'::bigint))) NOT VALID;


--
-- Name: day_total day_total_vice_range; Type: CHECK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.day_total
    ADD CONSTRAINT day_total_vice_range CHECK (((vice_blocks >= 0) AND (vice_blocks <= 1440))) NOT VALID;


--
-- Name: group_challenge group_challenge_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.group_challenge
    ADD CONSTRAINT group_challenge_pkey PRIMARY KEY (code, id);


--
-- Name: group_info group_info_channel_key; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.group_info
    ADD CONSTRAINT group_info_channel_key UNIQUE (channel);


--
-- Name: group_info group_info_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.group_info
    ADD CONSTRAINT group_info_pkey PRIMARY KEY (code);


--
-- Name: identity_claim identity_claim_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.identity_claim
    ADD CONSTRAINT identity_claim_pkey PRIMARY KEY (user_id, role_name, secret_hash);


--
-- Name: identity identity_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.identity
    ADD CONSTRAINT identity_pkey PRIMARY KEY (user_id);


--
-- Name: last_group last_group_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.last_group
    ADD CONSTRAINT last_group_pkey PRIMARY KEY (user_id);


--
-- Name: legacy_user legacy_user_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.legacy_user
    ADD CONSTRAINT legacy_user_pkey PRIMARY KEY (user_id);


--
-- Name: machine_day_total machine_day_total_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.machine_day_total
    ADD CONSTRAINT machine_day_total_pkey PRIMARY KEY (code, user_id, date, machine_id);


--
-- Name: machine machine_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.machine
    ADD CONSTRAINT machine_pkey PRIMARY KEY (user_id, machine_id);


--
-- Name: member member_blocks_range; Type: CHECK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.member
    ADD CONSTRAINT member_blocks_range CHECK (((blocks_today >= 0) AND (blocks_today <= 1440))) NOT VALID;


--
-- Name: member member_code_name_key_key; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.member
    ADD CONSTRAINT member_code_name_key_key UNIQUE (code, name_key);


--
-- Name: member member_name_length; Type: CHECK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.member
    ADD CONSTRAINT member_name_length CHECK (((char_length(display_name) >= 1) AND (char_length(display_name) <= 60))) NOT VALID;


--
-- Name: member member_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.member
    ADD CONSTRAINT member_pkey PRIMARY KEY (code, user_id);


--
-- Name: member member_streak_range; Type: CHECK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.member
    ADD CONSTRAINT member_streak_range CHECK (((streak >= 0) AND (streak <= 36525))) NOT VALID;


--
-- Name: member member_version_range; Type: CHECK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.member
    ADD CONSTRAINT member_version_range CHECK (((version >= 0) AND (version <= '9007199254740992'::bigint))) NOT VALID;


--
-- Name: open_challenge open_challenge_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.open_challenge
    ADD CONSTRAINT open_challenge_pkey PRIMARY KEY (id);


--
-- Name: open_participant open_participant_challenge_id_name_key_key; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.open_participant
    ADD CONSTRAINT open_participant_challenge_id_name_key_key UNIQUE (challenge_id, name_key);


--
-- Name: open_participant open_participant_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.open_participant
    ADD CONSTRAINT open_participant_pkey PRIMARY KEY (challenge_id, user_id);


--
-- Name: rules_change rules_change_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.rules_change
    ADD CONSTRAINT rules_change_pkey PRIMARY KEY (code, from_day);


--
-- Name: schema_migration schema_migration_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.schema_migration
    ADD CONSTRAINT schema_migration_pkey PRIMARY KEY (version);


--
-- Name: shared_login shared_login_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.shared_login
    ADD CONSTRAINT shared_login_pkey PRIMARY KEY (role_name);


--
-- Name: store_policy store_policy_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.store_policy
    ADD CONSTRAINT store_policy_pkey PRIMARY KEY (only_row);


--
-- Name: week_result week_result_pkey; Type: CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.week_result
    ADD CONSTRAINT week_result_pkey PRIMARY KEY (code, user_id, week);


--
-- Name: challenge_participant_by_change; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX challenge_participant_by_change ON screenmates.challenge_participant USING btree (code, seq);


--
-- Name: coin_standing_public; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX coin_standing_public ON screenmates.coin_standing USING btree (coins DESC, badges DESC) WHERE is_public;


--
-- Name: day_total_by_change; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX day_total_by_change ON screenmates.day_total USING btree (code, seq);


--
-- Name: failed_attempt_by_log; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX failed_attempt_by_log ON screenmates.failed_attempt USING btree (logged_at);


--
-- Name: failed_attempt_by_role; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX failed_attempt_by_role ON screenmates.failed_attempt USING btree (role_name, logged_at);


--
-- Name: failed_attempt_by_user; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX failed_attempt_by_user ON screenmates.failed_attempt USING btree (user_id, at);


--
-- Name: group_challenge_by_change; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX group_challenge_by_change ON screenmates.group_challenge USING btree (code, seq);


--
-- Name: group_info_by_creator; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX group_info_by_creator ON screenmates.group_info USING btree (created_by, created_on);


--
-- Name: identity_by_role; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX identity_by_role ON screenmates.identity USING btree (role_name, bound_at);


--
-- Name: identity_claim_by_role; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX identity_claim_by_role ON screenmates.identity_claim USING btree (role_name);


--
-- Name: machine_day_total_by_machine; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX machine_day_total_by_machine ON screenmates.machine_day_total USING btree (user_id, machine_id);


--
-- Name: machine_live_name; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE UNIQUE INDEX machine_live_name ON screenmates.machine USING btree (user_id, lower(name)) WHERE (retired_at IS NULL);


--
-- Name: member_by_change; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX member_by_change ON screenmates.member USING btree (code, seq);


--
-- Name: member_by_user; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX member_by_user ON screenmates.member USING btree (user_id);


--
-- Name: open_participant_by_user; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX open_participant_by_user ON screenmates.open_participant USING btree (user_id, joined_on);


--
-- Name: week_result_by_change; Type: INDEX; Schema: screenmates; Owner: -
--

CREATE INDEX week_result_by_change ON screenmates.week_result USING btree (code, seq);


--
-- Name: challenge_participant challenge_participant_games; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER challenge_participant_games AFTER INSERT OR DELETE OR UPDATE ON screenmates.challenge_participant FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games();


--
-- Name: challenge_participant challenge_participant_removal; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER challenge_participant_removal AFTER DELETE ON screenmates.challenge_participant FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal();


--
-- Name: challenge_participant challenge_participant_stamp; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER challenge_participant_stamp BEFORE INSERT OR UPDATE ON screenmates.challenge_participant FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change();


--
-- Name: coin_standing coin_standing_games; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER coin_standing_games AFTER INSERT OR UPDATE ON screenmates.coin_standing FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_standing_games();


--
-- Name: coin_standing coin_standing_stamp; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER coin_standing_stamp AFTER INSERT OR UPDATE ON screenmates.coin_standing FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_standing();


--
-- Name: day_total day_total_settlement; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER day_total_settlement AFTER INSERT OR UPDATE ON screenmates.day_total FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_day_total_settlement();


--
-- Name: day_total day_total_stamp; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER day_total_stamp BEFORE INSERT OR UPDATE ON screenmates.day_total FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change();


--
-- Name: group_challenge group_challenge_games; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER group_challenge_games AFTER INSERT OR DELETE OR UPDATE ON screenmates.group_challenge FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games();


--
-- Name: group_challenge group_challenge_removal; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER group_challenge_removal AFTER DELETE ON screenmates.group_challenge FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal();


--
-- Name: group_challenge group_challenge_stamp; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER group_challenge_stamp BEFORE INSERT OR UPDATE ON screenmates.group_challenge FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change();


--
-- Name: group_info group_rules_games; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER group_rules_games BEFORE UPDATE OF week_start, kept_day_coins, over_day_coins, missing_days, settle_from ON screenmates.group_info FOR EACH ROW WHEN (((old.week_start IS DISTINCT FROM new.week_start) OR (old.kept_day_coins IS DISTINCT FROM new.kept_day_coins) OR (old.over_day_coins IS DISTINCT FROM new.over_day_coins) OR (old.missing_days IS DISTINCT FROM new.missing_days) OR (old.settle_from IS DISTINCT FROM new.settle_from))) EXECUTE FUNCTION screenmates.stamp_rules_games();


--
-- Name: group_info group_rules_settlement; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER group_rules_settlement BEFORE UPDATE OF week_start, kept_day_coins, over_day_coins, missing_days, settle_from ON screenmates.group_info FOR EACH ROW WHEN (((old.week_start IS DISTINCT FROM new.week_start) OR (old.kept_day_coins IS DISTINCT FROM new.kept_day_coins) OR (old.over_day_coins IS DISTINCT FROM new.over_day_coins) OR (old.missing_days IS DISTINCT FROM new.missing_days) OR (old.settle_from IS DISTINCT FROM new.settle_from))) EXECUTE FUNCTION screenmates.stamp_rules_settlement();


--
-- Name: member member_games; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER member_games AFTER INSERT OR DELETE ON screenmates.member FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games();


--
-- Name: member member_removal; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER member_removal AFTER DELETE ON screenmates.member FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal();


--
-- Name: member member_renamed; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER member_renamed AFTER UPDATE OF display_name ON screenmates.member FOR EACH ROW WHEN ((old.display_name IS DISTINCT FROM new.display_name)) EXECUTE FUNCTION screenmates.stamp_renamed_parts();


--
-- Name: member member_renamed_games; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER member_renamed_games AFTER UPDATE OF display_name ON screenmates.member FOR EACH ROW WHEN ((old.display_name IS DISTINCT FROM new.display_name)) EXECUTE FUNCTION screenmates.stamp_games();


--
-- Name: member member_settlement; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER member_settlement AFTER INSERT OR DELETE OR UPDATE OF joined_at ON screenmates.member FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_settlement();


--
-- Name: member member_stamp; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER member_stamp BEFORE INSERT OR UPDATE ON screenmates.member FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change();


--
-- Name: open_participant open_participant_removed; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER open_participant_removed AFTER DELETE ON screenmates.open_participant FOR EACH STATEMENT EXECUTE FUNCTION screenmates.stamp_open_removal();


--
-- Name: rules_change rules_change_games; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER rules_change_games AFTER INSERT OR DELETE OR UPDATE ON screenmates.rules_change FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games();


--
-- Name: week_result week_result_games; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER week_result_games AFTER INSERT OR DELETE OR UPDATE ON screenmates.week_result FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_games();


--
-- Name: week_result week_result_removal; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER week_result_removal AFTER DELETE ON screenmates.week_result FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_removal();


--
-- Name: week_result week_result_stamp; Type: TRIGGER; Schema: screenmates; Owner: -
--

CREATE TRIGGER week_result_stamp BEFORE INSERT OR UPDATE ON screenmates.week_result FOR EACH ROW EXECUTE FUNCTION screenmates.stamp_change();


--
-- Name: challenge_participant challenge_participant_code_challenge_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.challenge_participant
    ADD CONSTRAINT challenge_participant_code_challenge_id_fkey FOREIGN KEY (code, challenge_id) REFERENCES screenmates.group_challenge(code, id) ON DELETE CASCADE;


--
-- Name: challenge_participant challenge_participant_code_user_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.challenge_participant
    ADD CONSTRAINT challenge_participant_code_user_id_fkey FOREIGN KEY (code, user_id) REFERENCES screenmates.member(code, user_id) ON DELETE CASCADE;


--
-- Name: day_total day_total_code_user_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.day_total
    ADD CONSTRAINT day_total_code_user_id_fkey FOREIGN KEY (code, user_id) REFERENCES screenmates.member(code, user_id) ON DELETE CASCADE;


--
-- Name: group_challenge group_challenge_code_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.group_challenge
    ADD CONSTRAINT group_challenge_code_fkey FOREIGN KEY (code) REFERENCES screenmates.group_info(code);


--
-- Name: identity_claim identity_claim_user_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.identity_claim
    ADD CONSTRAINT identity_claim_user_id_fkey FOREIGN KEY (user_id) REFERENCES screenmates.legacy_user(user_id) ON DELETE CASCADE;


--
-- Name: machine_day_total machine_day_total_code_user_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.machine_day_total
    ADD CONSTRAINT machine_day_total_code_user_id_fkey FOREIGN KEY (code, user_id) REFERENCES screenmates.member(code, user_id) ON DELETE CASCADE;


--
-- Name: machine_day_total machine_day_total_user_id_machine_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.machine_day_total
    ADD CONSTRAINT machine_day_total_user_id_machine_id_fkey FOREIGN KEY (user_id, machine_id) REFERENCES screenmates.machine(user_id, machine_id);


--
-- Name: member member_code_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.member
    ADD CONSTRAINT member_code_fkey FOREIGN KEY (code) REFERENCES screenmates.group_info(code);


--
-- Name: open_participant open_participant_challenge_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.open_participant
    ADD CONSTRAINT open_participant_challenge_id_fkey FOREIGN KEY (challenge_id) REFERENCES screenmates.open_challenge(id) ON DELETE CASCADE;


--
-- Name: open_participant open_participant_user_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.open_participant
    ADD CONSTRAINT open_participant_user_id_fkey FOREIGN KEY (user_id) REFERENCES screenmates.identity(user_id) ON DELETE CASCADE;


--
-- Name: rules_change rules_change_code_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.rules_change
    ADD CONSTRAINT rules_change_code_fkey FOREIGN KEY (code) REFERENCES screenmates.group_info(code) ON DELETE CASCADE;


--
-- Name: week_result week_result_code_user_id_fkey; Type: FK CONSTRAINT; Schema: screenmates; Owner: -
--

ALTER TABLE ONLY screenmates.week_result
    ADD CONSTRAINT week_result_code_user_id_fkey FOREIGN KEY (code, user_id) REFERENCES screenmates.member(code, user_id) ON DELETE CASCADE;


--
-- Name: challenge_participant; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.challenge_participant ENABLE ROW LEVEL SECURITY;

--
-- Name: coin_standing; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.coin_standing ENABLE ROW LEVEL SECURITY;

--
-- Name: day_total; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.day_total ENABLE ROW LEVEL SECURITY;

--
-- Name: failed_attempt; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.failed_attempt ENABLE ROW LEVEL SECURITY;

--
-- Name: group_challenge; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.group_challenge ENABLE ROW LEVEL SECURITY;

--
-- Name: group_info; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.group_info ENABLE ROW LEVEL SECURITY;

--
-- Name: identity; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.identity ENABLE ROW LEVEL SECURITY;

--
-- Name: identity_claim; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.identity_claim ENABLE ROW LEVEL SECURITY;

--
-- Name: last_group; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.last_group ENABLE ROW LEVEL SECURITY;

--
-- Name: legacy_user; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.legacy_user ENABLE ROW LEVEL SECURITY;

--
-- Name: machine; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.machine ENABLE ROW LEVEL SECURITY;

--
-- Name: machine_day_total; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.machine_day_total ENABLE ROW LEVEL SECURITY;

--
-- Name: member; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.member ENABLE ROW LEVEL SECURITY;

--
-- Name: open_challenge; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.open_challenge ENABLE ROW LEVEL SECURITY;

--
-- Name: open_participant; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.open_participant ENABLE ROW LEVEL SECURITY;

--
-- Name: rules_change; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.rules_change ENABLE ROW LEVEL SECURITY;

--
-- Name: schema_migration; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.schema_migration ENABLE ROW LEVEL SECURITY;

--
-- Name: shared_login; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.shared_login ENABLE ROW LEVEL SECURITY;

--
-- Name: store_policy; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.store_policy ENABLE ROW LEVEL SECURITY;

--
-- Name: week_result; Type: ROW SECURITY; Schema: screenmates; Owner: -
--

ALTER TABLE screenmates.week_result ENABLE ROW LEVEL SECURITY;

--
-- Name: SCHEMA screenmates; Type: ACL; Schema: -; Owner: -
--

GRANT USAGE ON SCHEMA screenmates TO PUBLIC;


--
-- Name: FUNCTION app_id_scalars(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.app_id_scalars() FROM PUBLIC;


--
-- Name: FUNCTION apply_profile(p_codes text[], p_user text, p_name text, p_key text, p_rename boolean, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.apply_profile(p_codes text[], p_user text, p_name text, p_key text, p_rename boolean, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint) FROM PUBLIC;


--
-- Name: FUNCTION approve_claim(p_user text, p_role text, p_fingerprint text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.approve_claim(p_user text, p_role text, p_fingerprint text) FROM PUBLIC;


--
-- Name: FUNCTION block_sums_after(p_code text, p_first bigint, p_last bigint, p_after bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.block_sums_after(p_code text, p_first bigint, p_last bigint, p_after bigint) FROM PUBLIC;


--
-- Name: FUNCTION call_ms(p_now bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.call_ms(p_now bigint) FROM PUBLIC;


--
-- Name: FUNCTION caller(p_user text, p_secret text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.caller(p_user text, p_secret text) FROM PUBLIC;


--
-- Name: FUNCTION caller_owns_store(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.caller_owns_store() FROM PUBLIC;


--
-- Name: FUNCTION check_challenge(p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint, p_penalty bigint, p_starts_at bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_challenge(p_id text, p_rule text, p_first_day bigint, p_days bigint, p_reward bigint, p_penalty bigint, p_starts_at bigint) FROM PUBLIC;


--
-- Name: FUNCTION check_machine(p_machine text, p_name text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_machine(p_machine text, p_name text) FROM PUBLIC;


--
-- Name: FUNCTION check_profile(p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_profile(p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint) FROM PUBLIC;


--
-- Name: FUNCTION check_rule(p_rule text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_rule(p_rule text) FROM PUBLIC;


--
-- Name: FUNCTION check_settlement_rules(p_week_start integer, p_kept bigint, p_over bigint, p_missing text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_settlement_rules(p_week_start integer, p_kept bigint, p_over bigint, p_missing text) FROM PUBLIC;


--
-- Name: FUNCTION check_target(p_target jsonb); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_target(p_target jsonb) FROM PUBLIC;


--
-- Name: FUNCTION check_today(p_day bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_today(p_day bigint) FROM PUBLIC;


--
-- Name: FUNCTION check_user_id(p_user text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_user_id(p_user text) FROM PUBLIC;


--
-- Name: FUNCTION check_version(p_version bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.check_version(p_version bigint) FROM PUBLIC;


--
-- Name: FUNCTION day_of(p_ms bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.day_of(p_ms bigint) FROM PUBLIC;


--
-- Name: FUNCTION drop_if_empty(p_code text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.drop_if_empty(p_code text) FROM PUBLIC;


--
-- Name: FUNCTION first_machine(p_user text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.first_machine(p_user text) FROM PUBLIC;


--
-- Name: FUNCTION first_possible_today(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.first_possible_today() FROM PUBLIC;


--
-- Name: FUNCTION group_access(p_user text, p_code text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.group_access(p_user text, p_code text) FROM PUBLIC;


--
-- Name: FUNCTION is_app_id(p_app text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.is_app_id(p_app text) FROM PUBLIC;


--
-- Name: FUNCTION is_instant(p_ms bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.is_instant(p_ms bigint) FROM PUBLIC;


--
-- Name: FUNCTION is_name(p_name text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.is_name(p_name text) FROM PUBLIC;


--
-- Name: FUNCTION json_count(p_value jsonb, p_max integer); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.json_count(p_value jsonb, p_max integer) FROM PUBLIC;


--
-- Name: FUNCTION json_keys(p_value jsonb); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.json_keys(p_value jsonb) FROM PUBLIC;


--
-- Name: FUNCTION json_keys_unique(p_value json); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.json_keys_unique(p_value json) FROM PUBLIC;


--
-- Name: FUNCTION last_possible_today(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.last_possible_today() FROM PUBLIC;


--
-- Name: FUNCTION lock_group(p_user text, p_code text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.lock_group(p_user text, p_code text) FROM PUBLIC;


--
-- Name: FUNCTION lock_login(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.lock_login() FROM PUBLIC;


--
-- Name: FUNCTION lock_my_groups(p_user text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.lock_my_groups(p_user text) FROM PUBLIC;


--
-- Name: FUNCTION machine_of(p_user text, p_machine text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.machine_of(p_user text, p_machine text) FROM PUBLIC;


--
-- Name: FUNCTION machine_profile(p_user text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_version bigint, p_productive_today bigint, OUT stored boolean, OUT renamed boolean); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.machine_profile(p_user text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_version bigint, p_productive_today bigint, OUT stored boolean, OUT renamed boolean) FROM PUBLIC;


--
-- Name: FUNCTION machine_quota(p_user text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.machine_quota(p_user text) FROM PUBLIC;


--
-- Name: FUNCTION member_today(p_user text, OUT day bigint, OUT blocks bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.member_today(p_user text, OUT day bigint, OUT blocks bigint) FROM PUBLIC;


--
-- Name: FUNCTION members_after(p_code text, p_after bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.members_after(p_code text, p_after bigint) FROM PUBLIC;


--
-- Name: FUNCTION members_choose_clock(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.members_choose_clock() FROM PUBLIC;


--
-- Name: FUNCTION name_key(p_name text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.name_key(p_name text) FROM PUBLIC;


--
-- Name: FUNCTION name_letters(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.name_letters() FROM PUBLIC;


--
-- Name: FUNCTION name_marks(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.name_marks() FROM PUBLIC;


--
-- Name: FUNCTION own_machine(p_user text, p_machine text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.own_machine(p_user text, p_machine text) FROM PUBLIC;


--
-- Name: FUNCTION pending_claims(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.pending_claims() FROM PUBLIC;


--
-- Name: FUNCTION policy(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.policy() FROM PUBLIC;


--
-- Name: FUNCTION quota(p_message text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.quota(p_message text) FROM PUBLIC;


--
-- Name: FUNCTION record_failed_attempt(p_user text, p_now bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.record_failed_attempt(p_user text, p_now bigint) FROM PUBLIC;


--
-- Name: FUNCTION refuse(p_message text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.refuse(p_message text) FROM PUBLIC;


--
-- Name: FUNCTION retain_challenges(p_code text, p_today bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.retain_challenges(p_code text, p_today bigint) FROM PUBLIC;


--
-- Name: FUNCTION retain_day_totals(p_code text, p_today bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.retain_day_totals(p_code text, p_today bigint) FROM PUBLIC;


--
-- Name: FUNCTION retained_from(p_today bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.retained_from(p_today bigint) FROM PUBLIC;


--
-- Name: FUNCTION retry_after(p_user text, p_now bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.retry_after(p_user text, p_now bigint) FROM PUBLIC;


--
-- Name: FUNCTION server_ms(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.server_ms() FROM PUBLIC;


--
-- Name: FUNCTION stamp_change(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_change() FROM PUBLIC;


--
-- Name: FUNCTION stamp_day_total_settlement(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_day_total_settlement() FROM PUBLIC;


--
-- Name: FUNCTION stamp_games(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_games() FROM PUBLIC;


--
-- Name: FUNCTION stamp_open_removal(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_open_removal() FROM PUBLIC;


--
-- Name: FUNCTION stamp_removal(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_removal() FROM PUBLIC;


--
-- Name: FUNCTION stamp_renamed_parts(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_renamed_parts() FROM PUBLIC;


--
-- Name: FUNCTION stamp_rules_games(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_rules_games() FROM PUBLIC;


--
-- Name: FUNCTION stamp_rules_settlement(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_rules_settlement() FROM PUBLIC;


--
-- Name: FUNCTION stamp_settlement(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_settlement() FROM PUBLIC;


--
-- Name: FUNCTION stamp_standing(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_standing() FROM PUBLIC;


--
-- Name: FUNCTION stamp_standing_games(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.stamp_standing_games() FROM PUBLIC;


--
-- Name: FUNCTION store_days_of(p_user text, p_machine text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[], p_productive bigint[]); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.store_days_of(p_user text, p_machine text, p_code text, p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[], p_productive bigint[]) FROM PUBLIC;


--
-- Name: FUNCTION store_machine_days(p_code text, p_user text, p_machine text, p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[], p_productive bigint[]); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.store_machine_days(p_code text, p_user text, p_machine text, p_dates bigint[], p_vice bigint[], p_goals bigint[], p_versions bigint[], p_productive bigint[]) FROM PUBLIC;


--
-- Name: FUNCTION store_profile_of(p_user text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.store_profile_of(p_user text, p_machine text, p_name text, p_blocks bigint, p_day bigint, p_streak bigint, p_last_active bigint, p_last_updated bigint, p_version bigint, p_productive_today bigint) FROM PUBLIC;


--
-- Name: FUNCTION touch(p_code text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.touch(p_code text) FROM PUBLIC;


--
-- Name: FUNCTION verified_marks(p_user text, p_secret text, p_code text); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.verified_marks(p_user text, p_secret text, p_code text) FROM PUBLIC;


--
-- Name: FUNCTION week_coins(p_kept bigint, p_over bigint, p_missing bigint, p_kept_day_coins bigint, p_over_day_coins bigint); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.week_coins(p_kept bigint, p_over bigint, p_missing bigint, p_kept_day_coins bigint, p_over_day_coins bigint) FROM PUBLIC;


--
-- Name: FUNCTION week_first_day(p_day bigint, p_start integer); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.week_first_day(p_day bigint, p_start integer) FROM PUBLIC;


--
-- Name: FUNCTION weeks_per_settlement(); Type: ACL; Schema: screenmates; Owner: -
--

REVOKE ALL ON FUNCTION screenmates.weeks_per_settlement() FROM PUBLIC;


--
-- PostgreSQL database dump complete
--


