#ifndef SCREENMATES_CSQLITEDEFENSIVE_SHIM_H
#define SCREENMATES_CSQLITEDEFENSIVE_SHIM_H

#include <sqlite3.h>

// sqlite3_db_config is variadic, which Swift cannot call: this turns SQLite's defensive mode on
// for one connection and answers whether it is on (1), or -1 when SQLite refused.
// Defensive mode disables what lets ordinary SQL corrupt a file on purpose (writable_schema,
// PRAGMA schema_version writes, journal_mode=OFF…).
static inline int sm_sqlite_enable_defensive(sqlite3 *db) {
    int on = 0;
    if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on) != SQLITE_OK) return -1;
    return on;
}

#endif
