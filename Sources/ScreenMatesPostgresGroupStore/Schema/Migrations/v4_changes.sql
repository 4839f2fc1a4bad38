-- The group store's fourth schema on PostgreSQL: changes, not snapshots. Every row a member can
-- read carries the change number (`seq`) of the write that last changed it, and every group the
-- change number of the last write that took a row away (`removed_seq`: a member who left, with
-- their day totals, challenge parts and week results). A reader that has seen change number N
-- asks for the rows changed after N and merges them into what it has; when a row was taken away
-- after N it reads the group whole again. Applied once, in one transaction, by the program
-- itself. Statements are separated by a line holding only `;`.
--
-- The numbers are stamped by triggers, so every writing function (and the third schema's clients,
-- which keep working: compatible_from stays 3) stamps them alike. A row is stamped with the
-- group's change number plus one, read with the group's row locked: every writer holds that lock
-- until it commits and moves the change number before it does, so the rows a transaction writes
-- carry a number above every change number readable before it committed, and none is missed by a
-- reader that reads the change number first and the rows after.

-- == Columns and indexes ==
ALTER TABLE screenmates.group_info ADD COLUMN removed_seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.member ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.day_total ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.group_challenge ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.challenge_participant ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

ALTER TABLE screenmates.week_result ADD COLUMN seq bigint NOT NULL DEFAULT 0
;

CREATE INDEX member_by_change ON screenmates.member (code, seq)
;

CREATE INDEX day_total_by_change ON screenmates.day_total (code, seq)
;

CREATE INDEX group_challenge_by_change ON screenmates.group_challenge (code, seq)
;

CREATE INDEX challenge_participant_by_change ON screenmates.challenge_participant (code, seq)
;

CREATE INDEX week_result_by_change ON screenmates.week_result (code, seq)
;
