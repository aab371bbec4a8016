-- What a user writes today to get fixtures/xml/s3_list_bucket.xml into s3_list_bucket_result
-- (the columns of shape S3ListBucketResult) with PostgreSQL's own XML functions: one XMLTABLE for
-- the listing's scalars, one for the Contents rows (aggregated in document order), one for the
-- CommonPrefixes; the document is parsed once (w.body::xml). A LATERAL subquery over w.body:
-- bench/workloads/gen.py puts it into the documents' statement shape
--     SELECT count(d.*) FROM bench.w_s3_list_bucket w, LATERAL (<this>) d;
-- and test/xml_fixtures.sh checks that to_jsonb(d) equals fixtures/xml/s3_list_bucket.expected.json.
-- No validation beyond the input functions: a missing element is NULL, an unknown one is ignored.
SELECT h.name, h.prefix, h.marker, h.max_keys, h.delimiter, h.is_truncated,
       (SELECT array_agg(ROW(c.key, c.last_modified, c.etag, c.size,
                             CASE WHEN c.has_owner THEN ROW(c.owner_id, c.owner_name)::s3_owner END,
                             c.storage_class)::s3_object ORDER BY c.ord)
          FROM XMLTABLE(XMLNAMESPACES('http://s3.amazonaws.com/doc/2006-03-01/' AS s3),
                        '/s3:ListBucketResult/s3:Contents' PASSING p.x
                        COLUMNS ord FOR ORDINALITY,
                                key text PATH 's3:Key',
                                last_modified timestamptz PATH 's3:LastModified',
                                etag text PATH 's3:ETag',
                                size int8 PATH 's3:Size',
                                has_owner boolean PATH 'boolean(s3:Owner)',
                                owner_id text PATH 's3:Owner/s3:ID',
                                owner_name text PATH 's3:Owner/s3:DisplayName',
                                storage_class s3_storage_class PATH 's3:StorageClass') c) AS contents,
       (SELECT coalesce(array_agg(ROW(cp.prefix)::s3_common_prefix ORDER BY cp.ord), '{}')
          FROM XMLTABLE(XMLNAMESPACES('http://s3.amazonaws.com/doc/2006-03-01/' AS s3),
                        '/s3:ListBucketResult/s3:CommonPrefixes' PASSING p.x
                        COLUMNS ord FOR ORDINALITY, prefix text PATH 's3:Prefix') cp) AS common_prefixes,
       NULL::timestamptz AS listed_at
  FROM (SELECT w.body::xml AS x) p,
       XMLTABLE(XMLNAMESPACES('http://s3.amazonaws.com/doc/2006-03-01/' AS s3),
                '/s3:ListBucketResult' PASSING p.x
                COLUMNS name text PATH 's3:Name',
                        prefix text PATH 's3:Prefix',
                        marker text PATH 's3:Marker',
                        max_keys int4 PATH 's3:MaxKeys',
                        delimiter text PATH 's3:Delimiter',
                        is_truncated boolean PATH 's3:IsTruncated') h
