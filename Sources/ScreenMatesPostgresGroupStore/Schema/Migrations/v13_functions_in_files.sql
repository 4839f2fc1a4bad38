-- The group store's thirteenth schema on PostgreSQL: each function as it is, in a file of its own.
--
-- Twelve levels had stacked their functions: 133 definitions of 96 functions, 32 of them defined
-- two or more times, `settle_weeks` through two renamed layers, and a thousand lines of bodies that
-- a later level dropped run again at every fresh install. From this level on, a level's file
-- (this folder) changes only what cannot be made again (tables, columns, indexes, rows); every
-- function, with its triggers and its grant, lives in one file of ../Functions holding its
-- current definition, and every upgrade drops them all (../reset_functions.sql) and makes them
-- again from those files. Tests/ScreenMatesGroupStoreTests/Schemas/structure.sql is the whole
-- schema as a fresh install and every upgrade leave it.
--
-- What this level changed, checked by the tests that hold the server to the clients' rules
-- (PostgresSettlementAgreementTests, PostgresBoundsAgreementTests):
-- - `settle_weeks` settles, keeps the day totals still asked for and records the day it settled
--   for in one function, where three layers did (the eighth and tenth levels had renamed the one
--   before to `settle_closed_weeks` and `settle_and_retain`, both gone); a settled week's coins
--   come from one function (`week_coins`), the cap of weeks one call counts from another
--   (`weeks_per_settlement`), the rules' check from a third (`check_settlement_rules`);
-- - a day total with a goal of 0 (what homes recorded before goals were kept) is stored, as the
--   shared file stores it, where it was left out;
-- - a challenge's rule is at most 2,000 bytes of UTF-8, as the clients count it, where it was
--   2,000 characters (a rule the server took and every client then left out);
-- - a group's old day totals are taken away at every settlement that does any work, as the
--   shared file takes them away, where the eighth level did it at most once a day (`retained_on`,
--   dropped): a late day total older than the window went at the next day's turn on a server and
--   at once in the shared file. Since the tenth level a settlement that finds nothing changed
--   answers before it gets that far, so the once-a-day guard saved nothing.
-- What one login may spend is counted for the login, and writes never wait on the notification
-- queue:
-- - A login makes at most `members_per_login` ids in all (1,000), besides its new ids a day, and
--   the count and the new id are one step: logins take turns at it (an advisory lock per login),
--   where five parallel calls each counted 199 and each bound 200.
-- - Wrong group codes count for the login as well as for the id (`wrong_codes_per_login_per_hour`,
--   60), so a login's new ids do not each bring a budget of their own; a login the owner lists in
--   `shared_login` (one role for several members) is counted per id only, as before, so that one
--   of its members cannot keep the others from finding a group. The upgrade lists every login
--   that already holds more than one id.
-- - A login has at most `claims_per_login` claims waiting (5), so one login cannot fill an old
--   id's claims and keep its owner out, and creates at most `groups_created_per_login_per_day`
--   groups a day (20) over all its ids, where each id could create 10.
-- - A group keeps at most `challenges_per_group` challenges (200) whatever their days, where only
--   those running were counted (a challenge that began yesterday and lasted a day never was), and
--   a member is in at most `challenges_joined_per_member` of them (50) and a challenge has at
--   most `participants_per_challenge` (100), where joins were not counted at all; a settlement takes away challenges that ended before the month before
--   (`retain_challenges`), as the shared file does, so what a member reads is bounded.
-- - A write sends its group's notice only while PostgreSQL's notification queue is less than
--   `notify_queue_limit` full (a half): a member who holds the queue (a session that LISTENs and
--   never ends its transaction, while another fills it) costs the others their live updates, not
--   their writes; clients ask `notices_skipped` and follow by asking meanwhile.
-- One rule for names and app ids, the clients' (TextRules), which the server's sets are generated
-- from: the server took names and app ids every client refused (enclosing marks, a lone Hangul
-- filler, scalars its locale counts as letters, line separators, variation selectors, private
-- use and unassigned scalars), so a member could hide from the board or make a challenge vanish.
-- A name is up to 20 letters and 60 scalars in all, on both sides.
-- Same arguments and answers: clients of the third schema on keep working (compatible_from stays 3).

ALTER TABLE screenmates.group_info DROP COLUMN retained_on
;

ALTER TABLE screenmates.store_policy
    ADD COLUMN members_per_login integer NOT NULL DEFAULT 1000 CHECK (members_per_login >= 1),
    ADD COLUMN wrong_codes_per_login_per_hour integer NOT NULL DEFAULT 60 CHECK (wrong_codes_per_login_per_hour >= 5),
    ADD COLUMN claims_per_login integer NOT NULL DEFAULT 5 CHECK (claims_per_login >= 1),
    ADD COLUMN notify_queue_limit real NOT NULL DEFAULT 0.5 CHECK (notify_queue_limit BETWEEN 0 AND 1),
    ADD COLUMN challenges_per_group integer NOT NULL DEFAULT 200 CHECK (challenges_per_group >= 1),
    ADD COLUMN challenges_joined_per_member integer NOT NULL DEFAULT 50 CHECK (challenges_joined_per_member >= 1),
    ADD COLUMN participants_per_challenge integer NOT NULL DEFAULT 100 CHECK (participants_per_challenge >= 1),
    ADD COLUMN groups_created_per_login_per_day integer NOT NULL DEFAULT 20
        CHECK (groups_created_per_login_per_day >= 1)
;

ALTER TABLE screenmates.failed_attempt ADD COLUMN role_name text COLLATE "C"
;

UPDATE screenmates.failed_attempt f SET role_name = d.role_name FROM screenmates.identity d WHERE d.user_id = f.user_id
;

CREATE INDEX failed_attempt_by_role ON screenmates.failed_attempt (role_name, logged_at)
;

CREATE INDEX identity_claim_by_role ON screenmates.identity_claim (role_name)
;

CREATE TABLE screenmates.shared_login (
    role_name text COLLATE "C" PRIMARY KEY
)
;

ALTER TABLE screenmates.shared_login ENABLE ROW LEVEL SECURITY
;

REVOKE ALL ON screenmates.shared_login FROM PUBLIC
;

INSERT INTO screenmates.shared_login (role_name)
    SELECT d.role_name FROM screenmates.identity d GROUP BY d.role_name HAVING count(*) > 1
;

-- A display name is up to 20 letters and 60 scalars in all (`is_name`): the columns hold as much.
ALTER TABLE screenmates.member DROP CONSTRAINT member_name_length
;

ALTER TABLE screenmates.member
    ADD CONSTRAINT member_name_length CHECK (char_length(display_name) BETWEEN 1 AND 60) NOT VALID
;

ALTER TABLE screenmates.coin_standing DROP CONSTRAINT coin_standing_ranges
;

ALTER TABLE screenmates.coin_standing
    ADD CONSTRAINT coin_standing_ranges CHECK (
        coins BETWEEN 0 AND 1000000000 AND badges BETWEEN 0 AND 1000
        AND version BETWEEN 0 AND 9007199254740992 AND char_length(display_name) BETWEEN 1 AND 60) NOT VALID
;

ALTER TABLE screenmates.open_participant DROP CONSTRAINT open_participant_display_name_check
;

ALTER TABLE screenmates.open_participant
    ADD CONSTRAINT open_participant_display_name_check CHECK (char_length(display_name) BETWEEN 1 AND 60)
;
