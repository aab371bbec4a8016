-- What a user writes today to get fixtures/xml/rss_feed.xml into rss_feed (the columns of shape
-- RssFeed) with PostgreSQL's own XML functions: XMLTABLE over the channel, XMLTABLE over its
-- items (aggregated in document order), xpath() for each item's repeated category; the document
-- is parsed once (w.body::xml). pubDate/lastBuildDate go through timestamptz's input function,
-- which reads RFC 2822 dates; guid's isPermaLink defaults to true (RSS 2.0); an item without
-- <enclosure> gets NULL. Statement shape and check: see s3_list_bucket.xmltable.sql.
SELECT r.version,
       ROW(ch.title, ch.link,
           CASE WHEN ch.self_href IS NOT NULL THEN ROW(ch.self_href, ch.self_rel, ch.self_type)::rss_atom_link END,
           ch.description, ch.language, ch.copyright, ch.last_build_date, ch.generator, ch.ttl, ch.image_url,
           (SELECT coalesce(array_agg(ROW(i.title, i.link,
                                          CASE WHEN i.al_href IS NOT NULL THEN ROW(i.al_href, i.al_rel, i.al_type)::rss_atom_link END,
                                          i.creator, i.pub_date,
                                          (SELECT coalesce(array_agg(c::text), '{}')
                                             FROM unnest(xpath('/item/category/text()', i.item)) c),
                                          CASE WHEN i.guid IS NOT NULL THEN ROW(i.guid, i.guid_perma)::rss_guid END,
                                          i.description,
                                          CASE WHEN i.enc_url IS NOT NULL THEN ROW(i.enc_url, i.enc_length, i.enc_type)::rss_enclosure END
                                         )::rss_item ORDER BY i.ord), '{}')
              FROM XMLTABLE(XMLNAMESPACES('http://www.w3.org/2005/Atom' AS atom,
                                          'http://purl.org/dc/elements/1.1/' AS dc),
                            '/rss/channel/item' PASSING p.x
                            COLUMNS ord FOR ORDINALITY,
                                    item xml PATH '.',
                                    title text PATH 'title',
                                    link text PATH 'link',
                                    al_href text PATH 'atom:link/@href',
                                    al_rel text PATH 'atom:link/@rel',
                                    al_type text PATH 'atom:link/@type',
                                    creator text PATH 'dc:creator',
                                    pub_date timestamptz PATH 'pubDate',
                                    guid text PATH 'guid',
                                    guid_perma boolean PATH 'guid/@isPermaLink' DEFAULT true,
                                    description text PATH 'description',
                                    enc_url text PATH 'enclosure/@url',
                                    enc_length int8 PATH 'enclosure/@length',
                                    enc_type text PATH 'enclosure/@type') i)
          )::rss_channel AS channel
  FROM (SELECT w.body::xml AS x) p,
       XMLTABLE('/rss' PASSING p.x COLUMNS version text PATH '@version') r,
       XMLTABLE(XMLNAMESPACES('http://www.w3.org/2005/Atom' AS atom),
                '/rss/channel' PASSING p.x
                COLUMNS title text PATH 'title',
                        link text PATH 'link',
                        self_href text PATH 'atom:link/@href',
                        self_rel text PATH 'atom:link/@rel',
                        self_type text PATH 'atom:link/@type',
                        description text PATH 'description',
                        language text PATH 'language',
                        copyright text PATH 'copyright',
                        last_build_date timestamptz PATH 'lastBuildDate',
                        generator text PATH 'generator',
                        ttl int4 PATH 'ttl',
                        image_url text PATH 'image/url') ch
