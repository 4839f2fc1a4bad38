-- The group store's fifth schema on PostgreSQL: a lock timeout on every function a member may call.
-- Applied once, in one transaction, by the program itself. Statements are separated by a line
-- holding only `;`.
--
-- The third schema gave each function of the API `lock_timeout = '2s'`, so that a transaction
-- someone holds open can keep no call waiting past it; the two that say the schema's level
-- (`schema_version`, the first schema's; `schema_level`, the second's), which every client calls
-- before anything else, were left without one. They only read, but a table lock (a migration's,
-- or any other a role could take) would keep them waiting as long as it is held. Only their
-- settings change: clients of the third and fourth schemas keep working (compatible_from stays 3).

ALTER FUNCTION screenmates.schema_version() SET lock_timeout = '2s'
;

ALTER FUNCTION screenmates.schema_level() SET lock_timeout = '2s'
;
