-- The group store's fourteenth schema on PostgreSQL: a week is settled by the rules it started with.
--
-- A member could set the settlement rates to the harshest there are, settle the group's closed
-- weeks (`settle_weeks`) and set them back: the others' weeks were booked at rates no week had
-- begun with. From this level on a change of the rates (`change_settlement_rules`) takes effect
-- from the first week that has begun nowhere on Earth when it is made (by the server's clock, at
-- UTC+14), and waits in `rules_change` until then; a week is settled by the rates in force on its
-- first day, and a settlement folds the changes its weeks have reached into the group's own
-- columns. Only while the member changing them is the group's only one do the rates change at
-- once. SettlementSchedule.swift states the same rule for the clients and the shared file;
-- PostgresSettlementAgreementTests plays random histories of changes on all three.
-- `settlement_schedule` answers the rules with the changes to come. Clients of the third schema on
-- keep working (compatible_from stays 3): `settlement_rules` answers the rules set last and
-- `set_settlement_rules` makes a change as `change_settlement_rules` does.

CREATE TABLE screenmates.rules_change (
    code text COLLATE "C" NOT NULL REFERENCES screenmates.group_info (code) ON DELETE CASCADE,
    from_day bigint NOT NULL,
    kept_day_coins bigint NOT NULL CHECK (kept_day_coins BETWEEN 0 AND 1000),
    over_day_coins bigint NOT NULL CHECK (over_day_coins BETWEEN 0 AND 1000),
    missing_days text COLLATE "C" NOT NULL CHECK (missing_days IN ('pending', 'worst-case')),
    PRIMARY KEY (code, from_day)
)
;

ALTER TABLE screenmates.rules_change ENABLE ROW LEVEL SECURITY
;

REVOKE ALL ON screenmates.rules_change FROM PUBLIC
;
