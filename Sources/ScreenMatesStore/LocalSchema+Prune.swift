extension LocalSchema {
    /// The daily prune's setting: the days whose events it keeps, 0 for none.
    static let v11DailyPrune = """
        ALTER TABLE profile ADD COLUMN prune_keep_days INTEGER NOT NULL DEFAULT 0;
        """

    /// Pruned days: the events of old, archived days folded into a per-app summary of each day
    /// (what the export's per-app columns need; the day row holds every other figure), the ids of
    /// the events removed (so a late copy of one is still refused), and how far the pruning went.
    static let v10PrunedDays = """
        CREATE TABLE day_app_usage (
            date TEXT NOT NULL,
            app_id TEXT NOT NULL,
            category TEXT NOT NULL CHECK (category IN ('vice', 'productive')),
            blocks INTEGER NOT NULL CHECK (blocks > 0),
            seconds INTEGER NOT NULL CHECK (seconds > 0),
            PRIMARY KEY (date, app_id, category)
        ) WITHOUT ROWID;
        CREATE TABLE pruned_event (
            id TEXT PRIMARY KEY NOT NULL,
            seq INTEGER NOT NULL
        ) WITHOUT ROWID;
        -- One row once anything was pruned: the first day kept, the instant before which no event
        -- is taken any more (the end of the last pruned day), and what the removed events counted.
        CREATE TABLE prune_state (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            kept_from TEXT NOT NULL,
            sealed_before INTEGER NOT NULL,
            events INTEGER NOT NULL CHECK (events >= 0),
            last_occurred_at INTEGER
        );
        """
}
