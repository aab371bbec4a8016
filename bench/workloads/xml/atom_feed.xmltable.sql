-- What a user writes today to get fixtures/xml/atom_feed.xml into atom_feed (the columns of shape
-- AtomFeed) with PostgreSQL's own XML functions: XMLTABLE per level (feed, its links, entries,
-- each entry's authors, links and categories), aggregated in document order; the document is
-- parsed once. Not a benchmark workload (only the S3 listing and the RSS feed are); it checks
-- the fixture's expected row (test/xml_fixtures.sh). Statement shape: see s3_list_bucket.xmltable.sql.
SELECT f.lang, f.id, f.title, f.subtitle, f.updated,
       (SELECT array_agg(ROW(l.rel, l.type, l.href)::atom_link ORDER BY l.ord)
          FROM XMLTABLE(XMLNAMESPACES('http://www.w3.org/2005/Atom' AS a), '/a:feed/a:link' PASSING p.x
                        COLUMNS ord FOR ORDINALITY, rel text PATH '@rel', type text PATH '@type',
                                href text PATH '@href') l) AS links,
       CASE WHEN f.author_name IS NOT NULL THEN ROW(f.author_name, f.author_email, f.author_uri)::atom_person END AS author,
       CASE WHEN f.gen IS NOT NULL THEN ROW(f.gen_uri, f.gen_version, f.gen)::atom_generator END AS generator,
       (SELECT array_agg(ROW(e.id, e.title, e.updated, e.published,
                  (SELECT array_agg(ROW(au.name, au.email, au.uri)::atom_person ORDER BY au.ord)
                     FROM XMLTABLE(XMLNAMESPACES('http://www.w3.org/2005/Atom' AS a), '/a:entry/a:author'
                                   PASSING e.entry COLUMNS ord FOR ORDINALITY, name text PATH 'a:name',
                                   email text PATH 'a:email', uri text PATH 'a:uri') au),
                  (SELECT array_agg(ROW(l.rel, l.type, l.href)::atom_link ORDER BY l.ord)
                     FROM XMLTABLE(XMLNAMESPACES('http://www.w3.org/2005/Atom' AS a), '/a:entry/a:link'
                                   PASSING e.entry COLUMNS ord FOR ORDINALITY, rel text PATH '@rel',
                                   type text PATH '@type', href text PATH '@href') l),
                  (SELECT coalesce(array_agg(ROW(c.term, c.scheme, c.label)::atom_category ORDER BY c.ord), '{}')
                     FROM XMLTABLE(XMLNAMESPACES('http://www.w3.org/2005/Atom' AS a), '/a:entry/a:category'
                                   PASSING e.entry COLUMNS ord FOR ORDINALITY, term text PATH '@term',
                                   scheme text PATH '@scheme', label text PATH '@label') c),
                  CASE WHEN e.content IS NOT NULL THEN ROW(e.content_type, e.content)::atom_text END
                 )::atom_entry ORDER BY e.ord)
          FROM XMLTABLE(XMLNAMESPACES('http://www.w3.org/2005/Atom' AS a), '/a:feed/a:entry' PASSING p.x
                        COLUMNS ord FOR ORDINALITY, entry xml PATH '.', id text PATH 'a:id',
                                title text PATH 'a:title', updated timestamptz PATH 'a:updated',
                                published timestamptz PATH 'a:published',
                                content_type text PATH 'a:content/@type' DEFAULT 'text',
                                content text PATH 'a:content') e) AS entries
  FROM (SELECT w.body::xml AS x) p,
       XMLTABLE(XMLNAMESPACES('http://www.w3.org/2005/Atom' AS a), '/a:feed' PASSING p.x
                COLUMNS lang text PATH '@xml:lang', id text PATH 'a:id', title text PATH 'a:title',
                        subtitle text PATH 'a:subtitle', updated timestamptz PATH 'a:updated',
                        author_name text PATH 'a:author/a:name', author_email text PATH 'a:author/a:email',
                        author_uri text PATH 'a:author/a:uri', gen text PATH 'a:generator',
                        gen_uri text PATH 'a:generator/@uri', gen_version text PATH 'a:generator/@version') f
