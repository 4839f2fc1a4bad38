-- The group store's fifteenth schema on PostgreSQL: one person, several machines, counted once.
--
-- A member who used one identity on two machines showed as the machine that wrote last: each
-- wrote its own blocks over the other's. From this level on each machine's days and today are
-- kept apart (`machine`, `machine_day_total`), and `day_total` and `member.blocks_today` hold the
-- member's sum: the blocks of all their machines (capped at a day's 1,440), the highest goal, the
-- highest version. Only the writing functions recompute a sum, for the dates and members a write
-- touched, and only a sum that changed is written, so every reader, stamp and change number is as
-- before and another member sees one row per person. A member's machines are read by the member
-- only (`my_machines`). Quotas: `machines_per_member` in use, `machines_kept_per_member` in all.
--
-- Every member's rows become those of their machine `first`, which the clients of the third to
-- fourteenth schemas write as (compatible_from stays 3): such a member is counted exactly as
-- before. A machine of theirs that updates takes `first` over with its days (`add_machine`, p_adopt),
-- after which a write as `first` is refused, saying to update. Rows no client accepts (possible
-- before the third level's checks) stay in `day_total` as they are, and readers leave them out as
-- before, until the member writes that day again.

ALTER TABLE screenmates.store_policy
    ADD COLUMN machines_per_member integer NOT NULL DEFAULT 4 CHECK (machines_per_member >= 1),
    ADD COLUMN machines_kept_per_member integer NOT NULL DEFAULT 16 CHECK (machines_kept_per_member >= 1)
;

-- A member's machines, whatever their groups, with what each last said of today (its own blocks).
CREATE TABLE screenmates.machine (
    user_id text COLLATE "C" NOT NULL CHECK (user_id ~ '^[A-Za-z0-9_-]{1,64}$'),
    machine_id text COLLATE "C" NOT NULL CHECK (machine_id = 'first' OR machine_id ~ '^[0-9a-f]{32}$'),
    name text COLLATE "C" NOT NULL CHECK (char_length(name) BETWEEN 1 AND 32 AND name ~ '^[A-Za-z0-9._-]+$'),
    added_at bigint NOT NULL,
    last_seen bigint NOT NULL,
    retired_at bigint,
    adopted_first boolean NOT NULL DEFAULT false,
    blocks_today bigint NOT NULL DEFAULT 0 CHECK (blocks_today BETWEEN 0 AND 1440),
    productive_today bigint CHECK (productive_today BETWEEN 0 AND 1440),
    day bigint CHECK (day BETWEEN -719162 AND 2932896),
    streak bigint CHECK (streak BETWEEN 0 AND 36525),
    version bigint NOT NULL DEFAULT 0 CHECK (version BETWEEN 0 AND 9007199254740992),
    sent_name text,
    PRIMARY KEY (user_id, machine_id)
)
;

CREATE UNIQUE INDEX machine_live_name ON screenmates.machine (user_id, lower(name)) WHERE retired_at IS NULL
;

-- Each machine's own day totals; `day_total` holds their sum per member and date.
CREATE TABLE screenmates.machine_day_total (
    code text COLLATE "C" NOT NULL,
    user_id text COLLATE "C" NOT NULL,
    date bigint NOT NULL CHECK (date BETWEEN -719162 AND 2932896),
    machine_id text COLLATE "C" NOT NULL,
    vice_blocks bigint NOT NULL CHECK (vice_blocks BETWEEN 0 AND 1440),
    productive_blocks bigint CHECK (productive_blocks BETWEEN 0 AND 1440),
    goal_blocks bigint NOT NULL CHECK (goal_blocks BETWEEN 0 AND 96),
    version bigint NOT NULL CHECK (version BETWEEN 0 AND 9007199254740992),
    PRIMARY KEY (code, user_id, date, machine_id),
    FOREIGN KEY (code, user_id) REFERENCES screenmates.member (code, user_id) ON DELETE CASCADE,
    FOREIGN KEY (user_id, machine_id) REFERENCES screenmates.machine (user_id, machine_id)
)
;

CREATE INDEX machine_day_total_by_machine ON screenmates.machine_day_total (user_id, machine_id)
;

-- Every member's first machine, with the profile of their newest member row.
INSERT INTO screenmates.machine (user_id, machine_id, name, added_at, last_seen, blocks_today, day, streak,
    version, sent_name)
SELECT DISTINCT ON (m.user_id) m.user_id, 'first', 'first', m.joined_at, m.last_updated,
    least(greatest(m.blocks_today, 0), 1440), CASE WHEN m.day BETWEEN -719162 AND 2932896 THEN m.day END,
    least(greatest(m.streak, 0), 36525),
    least(greatest(m.version, 0), 9007199254740992), m.display_name
FROM screenmates.member m
WHERE m.user_id ~ '^[A-Za-z0-9_-]{1,64}$'
ORDER BY m.user_id, m.version DESC, m.code
;

INSERT INTO screenmates.machine_day_total (code, user_id, date, machine_id, vice_blocks, goal_blocks, version)
SELECT d.code, d.user_id, d.date, 'first', d.vice_blocks, d.goal_blocks, d.version
FROM screenmates.day_total d
WHERE d.vice_blocks BETWEEN 0 AND 1440 AND d.goal_blocks BETWEEN 0 AND 96
    AND d.version BETWEEN 0 AND 9007199254740992
    AND EXISTS (SELECT 1 FROM screenmates.machine c WHERE c.user_id = d.user_id AND c.machine_id = 'first')
    AND EXISTS (SELECT 1 FROM screenmates.member m WHERE m.code = d.code AND m.user_id = d.user_id)
;

ALTER TABLE screenmates.machine ENABLE ROW LEVEL SECURITY
;

ALTER TABLE screenmates.machine_day_total ENABLE ROW LEVEL SECURITY
;

REVOKE ALL ON screenmates.machine, screenmates.machine_day_total FROM PUBLIC
;
