-- packaging.sql — what the packaging promises (docs/reference.md, "Installing and upgrading"): the
-- default version is the newest, every function and catalog object of the extension carries a
-- COMMENT, and every serde.* setting has a short and a long description.  A function added
-- without a COMMENT ON (in the newest serde--A--B.sql) shows up here.
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS serde;
RESET client_min_messages;

SELECT extversion, (SELECT default_version FROM pg_available_extensions WHERE name = 'serde') AS default_version
  FROM pg_extension WHERE extname = 'serde';

-- the update path from every released version reaches the default one
SELECT source, target, path FROM pg_extension_update_paths('serde')
 WHERE path IS NOT NULL ORDER BY source, target;

-- every member object of the extension, by kind: how many, how many without a comment (a
-- table's row type and its array, which PostgreSQL 17 records as members too, go with the table)
SELECT classid::regclass AS catalog, count(*) AS members,
       count(*) FILTER (WHERE obj_description(objid, classid::regclass::name) IS NULL) AS without_comment
  FROM pg_depend d
 WHERE refclassid = 'pg_extension'::regclass
   AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'serde')
   AND deptype = 'e'
   AND NOT EXISTS (SELECT FROM pg_type t LEFT JOIN pg_type e ON e.oid = t.typelem
                    WHERE d.classid = 'pg_type'::regclass AND t.oid = d.objid
                      AND (t.typrelid <> 0 OR coalesce(e.typrelid, 0) <> 0))
 GROUP BY 1 ORDER BY 1;

-- the functions without one, by name (expected: none)
SELECT p.oid::regprocedure AS function_without_comment
  FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
 WHERE d.refclassid = 'pg_extension'::regclass AND d.classid = 'pg_proc'::regclass
   AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'serde')
   AND obj_description(p.oid, 'pg_proc') IS NULL
 ORDER BY p.oid::regprocedure::text;

-- the comments of one family (the wording is the manual's)
SELECT p.oid::regprocedure AS function, obj_description(p.oid, 'pg_proc') AS comment
  FROM pg_proc p
 WHERE p.proname IN ('serde_register', 'serde_unregister', 'serde_describe', 'serde_cache_stats')
 ORDER BY p.oid::regprocedure::text;

-- the settings (they exist once the library is loaded: the first serde call loads it)
SELECT count(*) AS loaded FROM serde_cache_stats();
SELECT name, short_desc, extra_desc
  FROM pg_settings WHERE name LIKE 'serde.%' ORDER BY name;
SELECT count(*) AS settings_without_descriptions
  FROM pg_settings
 WHERE name LIKE 'serde.%' AND (coalesce(short_desc, '') = '' OR coalesce(extra_desc, '') = '');
