import GRDB

extension LocalSchema {
    /// v9: a challenge may be a group's (its participant's part is decided here and reported
    /// there), the public-ranking switch, and what the group store last said about the group's
    /// challenges, coins and weeks (read whole, kept as JSON, for offline use).
    static let v9GroupGames = """
        -- The group of a group challenge (NULL: a personal one), and what the group store
        -- has of this participant's part ("state days", NULL: nothing yet).
        ALTER TABLE challenge ADD COLUMN group_code TEXT;
        ALTER TABLE challenge ADD COLUMN reported TEXT;
        ALTER TABLE profile ADD COLUMN public_ranking INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE game_cache (
            code TEXT NOT NULL,
            kind TEXT NOT NULL,
            json TEXT NOT NULL,
            fetched_at INTEGER NOT NULL,
            PRIMARY KEY (code, kind)
        ) WITHOUT ROWID;
        """

    /// v13: a challenge may be one open to everyone on the group store (its participant's part is
    /// decided here and reported there, like a group challenge's).
    static let v13OpenChallenges = """
        ALTER TABLE challenge ADD COLUMN open_to_all INTEGER NOT NULL DEFAULT 0;
        """
}
