-- test/stress/setup.sql — the database of test/stress.sh: three shapes whose every committed
-- version decodes into a recognisable row, a log of committed versions, the decoding step the
-- pgbench clients run (with its own check), and the procedure that keeps changing the shapes and
-- their types.  Loaded with psql into a fresh database that has CREATE EXTENSION serde.
--
-- The document (one for all shapes): {"id": n, "m0": 0, ..., "m199": 199, "rb": -1,
-- "x1": 1, ..., "x40": 40} (+ "sub": the same for the nested shape).
--   * Version k of a shape maps its column `ver` to member "m<k % 200>" (a field rename), so a
--     decoded ver tells which version was used.  A change that is rolled back maps `ver` to "rb"
--     (-1): a -1 is a row from an uncommitted version.
--   * The types carry columns x<i> (i in 1..40) that the changer adds, drops and retypes
--     (int4 <-> int8); a decoded x<i> must equal i, whatever the type looks like by then — a stale
--     tuple descriptor would put values into the wrong columns.
--   * stress_log holds (shape, k), written in the transaction that registers version k.  A
--     decoding statement reads max(k) (k0) in the same statement as it decodes; a later statement
--     reads it again (k1).  The row is right iff ver = k % 200 for some k0 <= k <= k1: the version
--     committed before the statement began, or one committed while it ran (shapes are read with a
--     fresh catalog snapshot), never an older or an uncommitted one; and all rows of one call site
--     (one statement) come from the same version (docs/reference.md, "Plan cache": a call site keeps its plan for the
--     rest of the statement).
--
-- Two phases (stress_phase), so that serde's own duties are told apart from PostgreSQL's:
--   strict  the type DDL (ALTER TYPE, DROP/CREATE TYPE) is serialised against the decoding
--           transactions by an advisory lock (decoders share it, the changer takes it exclusively
--           for type DDL), so every type change has committed before a decoding statement starts
--           or after it ended.  Shape changes stay unsynchronised.  Every check must hold and no
--           error is tolerated.
--   race    the type DDL runs unsynchronised, in the middle of decoding statements.  PostgreSQL
--           does not lock a composite type against its users, and its own jsonb_populate_record
--           behaves the same here: a type changed between planning and execution raises 42804
--           ("function return row and query-specified return row do not match", or XX000 "cache
--           lookup failed for type 0" when the column is a dropped one — PostgreSQL's
--           tupledesc_match formatting a dropped column's type), 22P07 (a datum made before the
--           change read after it), 42704 (a type dropped since parsing), XX000 "could not open
--           relation with OID n" (a type dropped while its descriptor was being loaded:
--           jsonb_populate_record raises the same), XX000 "cache lookup failed for relation n" and
--           "function in FROM has unsupported return type" (PostgreSQL's executor start meeting a
--           type dropped since planning); a row made just before a
--           change and read just after it shows NULL in an added column.  Those errors are
--           tolerated and those rows counted as race artefacts; rows from a wrong or uncommitted
--           shape version still fail, and so does any other error.

CREATE TABLE stress_log (shape text NOT NULL, k int NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp(),
                         PRIMARY KEY (shape, k));
CREATE TABLE stress_phase (strict boolean NOT NULL);
INSERT INTO stress_phase VALUES (true);
-- kind: ok | version (a row outside [k0, k1] or from an uncommitted version) | mixed (one statement,
-- several versions) | columns (an x<i> that is not i) | count (wrong number of rows / verdicts)
CREATE UNLOGGED TABLE stress_checks (mode int NOT NULL, strict boolean NOT NULL, kind text NOT NULL);
CREATE TABLE stress_violations (at timestamptz DEFAULT clock_timestamp(), strict boolean, kind text, mode int, shape text,
                                k0 int, k1 int, vmin int, vmax int, nrows int, badrows int, detail text,
                                bad_row jsonb);
CREATE TABLE stress_errors (at timestamptz DEFAULT clock_timestamp(), strict boolean, mode int, sqlstate text, message text,
                            context text);
CREATE TABLE stress_changes (at timestamptz DEFAULT clock_timestamp(), strict boolean, action text, shape text,
                             detail text, failed text);

-- the types: st_a and st_b flat, st_n nested (its column `sub` is an st_a decoded by shape StA)
CREATE TYPE st_a AS (id int4, ver int4, x1 int4, x2 int4, x3 int4, x4 int4, x5 int4, x6 int4);
CREATE TYPE st_b AS (id int4, ver int4, x7 int4, x8 int4, x9 int4, x10 int4);
CREATE TYPE st_n AS (id int4, ver int4, sub st_a, x11 int4, x12 int4);

CREATE TABLE stress_shapes (shape text PRIMARY KEY, typ regtype NOT NULL);
INSERT INTO stress_shapes VALUES ('StA', 'st_a'), ('StB', 'st_b'), ('StN', 'st_n');

-- the options of version k of a shape (k < 0: the marker of a change that will be rolled back)
CREATE FUNCTION stress_options(p_shape text, p_k int) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object('fields',
        jsonb_build_object('ver', jsonb_build_object('name', CASE WHEN p_k < 0 THEN 'rb' ELSE 'm' || (p_k % 200) END))
        || CASE WHEN p_shape = 'StN' THEN '{"sub": {"shape": "StA"}}'::jsonb ELSE '{}' END)
$$;

SELECT serde_register(shape, typ, stress_options(shape, 0)) FROM stress_shapes ORDER BY shape = 'StN';
INSERT INTO stress_log (shape, k) SELECT shape, 0 FROM stress_shapes;

-- documents: 20 flat ones (ids 1..20), 20 nested ones, one array of all 20 flat ones, one bad one
CREATE FUNCTION stress_doc(p_id int) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT jsonb_build_object('id', p_id, 'rb', -1)
        || (SELECT jsonb_object_agg('m' || g, g) FROM generate_series(0, 199) g)
        || (SELECT jsonb_object_agg('x' || g, g) FROM generate_series(1, 40) g)
$$;
-- the XML rendering of a document: <doc><id>n</id><m0>0</m0>...</doc> (members in jsonb order)
CREATE FUNCTION stress_xml(j jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT '<doc>' || string_agg(format('<%s>%s</%s>', e.key, e.value, e.key), '') || '</doc>'
      FROM jsonb_each_text(j) e
$$;
CREATE TABLE stress_docs (id int PRIMARY KEY, body text NOT NULL, nested text NOT NULL, xml text NOT NULL);
INSERT INTO stress_docs
SELECT g, stress_doc(g)::text, (stress_doc(g) || jsonb_build_object('sub', stress_doc(1000 + g)))::text,
       stress_xml(stress_doc(g))
  FROM generate_series(1, 20) g;
CREATE TABLE stress_arrays (body text NOT NULL);
INSERT INTO stress_arrays SELECT '[' || string_agg(body, ', ' ORDER BY id) || ']' FROM stress_docs;
CREATE TABLE stress_bad (body text NOT NULL, xml text NOT NULL);
INSERT INTO stress_bad SELECT (stress_doc(1) || '{"id": "x"}')::text, stress_xml(stress_doc(1) || '{"id": "x"}');

-- true iff every x<i> member of the row (and of its nested rows) holds i
CREATE FUNCTION stress_row_ok(j jsonb) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(bool_and(CASE WHEN e.key ~ '^x[0-9]+$' THEN e.value = to_jsonb(substr(e.key, 2)::int)
                                  WHEN e.key = 'sub' THEN stress_row_ok(e.value)
                                  ELSE true END), false)
       AND j ? 'id' AND j ? 'ver'
      FROM jsonb_each(j) e
$$;

-- ver must come from a version k with k0 <= k <= k1
CREATE FUNCTION stress_ver_ok(p_ver int, k0 int, k1 int) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT p_ver IS NOT NULL AND p_ver >= 0 AND k0 <= k1
       AND EXISTS (SELECT FROM generate_series(k0, k1) k WHERE k % 200 = p_ver)
$$;

CREATE FUNCTION stress_k(p_shape text) RETURNS int LANGUAGE sql STABLE AS $$
    SELECT max(k) FROM stress_log WHERE shape = p_shape
$$;

-- one pgbench transaction: one decoding mode, checked; errors are recorded, not raised
--   1 typed serde_decode, StA, 5 documents        2 the same for StB
--   3 nested: StN with an StA inside              4 serde_decode_each over an array of 20 (StA)
--   5 serde_decode('StB', doc): a record value    6 serde_valid, StA and StN: always true
--   7 serde_errors over a bad document (StB): exactly one row, $.id 22032
--   8 serde_decode_xml, StA, the XML renderings of 5 documents (checked as mode 1)
--   9 serde_errors_xml over the bad document's XML rendering (StB): one row, /doc/id 2200N
CREATE FUNCTION stress_step(p_mode int) RETURNS void LANGUAGE plpgsql AS $f$
DECLARE
    k0 int; k1 int; a0 int; a1 int; vmin int; vmax int; imin int; imax int; n int; bad int;
    shape text; kind text; st text; msg text; ctx text; badrow jsonb; v_strict boolean;
    k_ok boolean; i_ok boolean := true;
BEGIN
    -- the phase: shared advisory lock first, then the flag (see stress_change's switch)
    PERFORM pg_advisory_xact_lock_shared(4242);
    SELECT strict INTO v_strict FROM stress_phase;
    BEGIN
        -- every statement is EXECUTEd (parsed afresh, as a client sending SQL would), and reads
        -- the versions in the same statement (same snapshot) as it decodes
        IF p_mode IN (1, 2) THEN
            shape := CASE p_mode WHEN 1 THEN 'StA' ELSE 'StB' END;
            EXECUTE format($q$SELECT stress_k(%L), min(d.ver), max(d.ver), count(*),
                                     count(*) FILTER (WHERE NOT stress_row_ok(to_jsonb(d))),
                                     (array_agg(to_jsonb(d)) FILTER (WHERE NOT stress_row_ok(to_jsonb(d))))[1]
                                FROM stress_docs s, LATERAL serde_decode(NULL::%s, s.body) d
                               WHERE s.id <= 5$q$, shape, CASE p_mode WHEN 1 THEN 'st_a' ELSE 'st_b' END)
                INTO k0, vmin, vmax, n, bad, badrow;
            EXECUTE format('SELECT stress_k(%L)', shape) INTO k1;
            k_ok := n = 5;
        ELSIF p_mode = 3 THEN
            shape := 'StN';
            EXECUTE $q$SELECT stress_k('StN'), stress_k('StA'), min(d.ver), max(d.ver),
                              min((d.sub).ver), max((d.sub).ver), count(*),
                              count(*) FILTER (WHERE NOT stress_row_ok(to_jsonb(d))),
                                     (array_agg(to_jsonb(d)) FILTER (WHERE NOT stress_row_ok(to_jsonb(d))))[1]
                         FROM stress_docs s, LATERAL serde_decode(NULL::st_n, s.nested) d
                        WHERE s.id <= 3$q$
                INTO k0, a0, vmin, vmax, imin, imax, n, bad, badrow;
            EXECUTE $q$SELECT stress_k('StN'), stress_k('StA')$q$ INTO k1, a1;
            k_ok := n = 3;
            i_ok := stress_ver_ok(imin, a0, a1) AND stress_ver_ok(imax, a0, a1);
        ELSIF p_mode = 4 THEN
            shape := 'StA';
            EXECUTE $q$SELECT stress_k('StA'), min(d.ver), max(d.ver), count(*),
                              count(*) FILTER (WHERE NOT stress_row_ok(to_jsonb(d))),
                                     (array_agg(to_jsonb(d)) FILTER (WHERE NOT stress_row_ok(to_jsonb(d))))[1]
                         FROM stress_arrays s, LATERAL serde_decode_each(NULL::st_a, s.body) d$q$
                INTO k0, vmin, vmax, n, bad, badrow;
            EXECUTE $q$SELECT stress_k('StA')$q$ INTO k1;
            k_ok := n = 20;
        ELSIF p_mode = 5 THEN
            shape := 'StB';
            EXECUTE $q$SELECT stress_k('StB'), min((x.j->>'ver')::int), max((x.j->>'ver')::int),
                              count(*), count(*) FILTER (WHERE NOT stress_row_ok(x.j)),
                              (array_agg(x.j) FILTER (WHERE NOT stress_row_ok(x.j)))[1]
                         -- OFFSET 0 keeps the subquery: pulled up, its expression would be
                         -- copied into each aggregate, i.e. several call sites, each entitled to
                         -- its own plan (docs/reference.md, "Plan cache": a plan per call site)
                         FROM stress_docs s, LATERAL (SELECT to_jsonb(serde_decode('StB', s.body)) AS j OFFSET 0) x
                        WHERE s.id <= 5$q$
                INTO k0, vmin, vmax, n, bad, badrow;
            EXECUTE $q$SELECT stress_k('StB')$q$ INTO k1;
            k_ok := n = 5;
        ELSIF p_mode = 6 THEN
            shape := 'StA+StN';
            EXECUTE $q$SELECT count(*), count(*) FILTER (WHERE serde_valid(NULL::st_a, s.body) AND serde_valid('StN', s.nested))
                         FROM stress_docs s$q$
                INTO n, bad;
            bad := n - bad;
            k_ok := n = 20;
        ELSIF p_mode = 7 THEN
            shape := 'StB';
            EXECUTE $q$SELECT count(*), count(*) FILTER (WHERE e.path = '$.id' AND e.code = '22032')
                         FROM stress_bad b, LATERAL serde_errors(NULL::st_b, b.body) e$q$
                INTO n, bad;
            bad := n - bad;
            k_ok := n = 1;
        ELSIF p_mode = 8 THEN
            shape := 'StA';
            EXECUTE $q$SELECT stress_k('StA'), min(d.ver), max(d.ver), count(*),
                              count(*) FILTER (WHERE NOT stress_row_ok(to_jsonb(d))),
                                     (array_agg(to_jsonb(d)) FILTER (WHERE NOT stress_row_ok(to_jsonb(d))))[1]
                         FROM stress_docs s, LATERAL serde_decode_xml(NULL::st_a, s.xml) d
                        WHERE s.id <= 5$q$
                INTO k0, vmin, vmax, n, bad, badrow;
            EXECUTE $q$SELECT stress_k('StA')$q$ INTO k1;
            k_ok := n = 5;
        ELSE
            shape := 'StB';
            EXECUTE $q$SELECT count(*), count(*) FILTER (WHERE e.path = '/doc/id' AND e.code = '2200N')
                         FROM stress_bad b, LATERAL serde_errors_xml(NULL::st_b, b.xml) e$q$
                INTO n, bad;
            bad := n - bad;
            k_ok := n = 1;
        END IF;
    EXCEPTION WHEN OTHERS THEN
        GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
        INSERT INTO stress_errors (strict, mode, sqlstate, message, context) VALUES (v_strict, p_mode, st, msg, ctx);
        RETURN;
    END;
    -- the worst finding decides the kind
    kind := CASE WHEN p_mode IN (6, 7, 9) AND (NOT k_ok OR bad > 0) THEN 'count'
                 WHEN p_mode IN (6, 7, 9) THEN 'ok'
                 WHEN NOT (stress_ver_ok(vmin, k0, k1) AND stress_ver_ok(vmax, k0, k1) AND i_ok) THEN 'version'
                 WHEN NOT k_ok THEN 'count'
                 WHEN vmin <> vmax OR imin <> imax THEN 'mixed'
                 WHEN bad > 0 THEN 'columns'
                 ELSE 'ok' END;
    INSERT INTO stress_checks VALUES (p_mode, v_strict, kind);
    IF kind <> 'ok' THEN
        INSERT INTO stress_violations (strict, kind, mode, shape, k0, k1, vmin, vmax, nrows, badrows, detail, bad_row)
        VALUES (v_strict, kind, p_mode, shape, k0, k1, vmin, vmax, n, bad,
                CASE WHEN p_mode = 3 THEN format('sub ver %s..%s, StA k %s..%s', imin, imax, a0, a1) END, badrow);
    END IF;
END $f$;

-- the changer: until p_seconds have passed, one change per transaction, picked at random:
--   register   re-register a shape as version k+1 (its `ver` renamed to another member)
--   add        ALTER TYPE … ADD ATTRIBUTE x<i>         drop   ALTER TYPE … DROP ATTRIBUTE x<i>
--   retype     ALTER TYPE … ALTER ATTRIBUTE x<i> TYPE int8 (or back to int4)
--   rollback   re-register with `ver` → "rb", wait, roll back (decoders must never see it)
--   replace    serde_unregister + serde_register as version k+1 in one transaction
--   recreate   (StB only) DROP TYPE st_b; CREATE TYPE st_b with the same columns; register k+1
CREATE PROCEDURE stress_change(p_seconds float8, p_strict_seconds float8) LANGUAGE plpgsql AS $p$
DECLARE
    deadline timestamptz := clock_timestamp() + make_interval(secs => p_seconds);
    race_at timestamptz := clock_timestamp() + make_interval(secs => p_strict_seconds);
    v_strict boolean := true;
    r float8; v_shape text; v_typ regtype; v_k int; i int; act text; det text; cols text;
    st text; msg text; failed text;
BEGIN
    UPDATE stress_phase SET strict = true;
    COMMIT;
    WHILE clock_timestamp() < deadline LOOP
        IF v_strict AND clock_timestamp() >= race_at THEN
            -- switch to the race phase: publish it, then wait until every transaction that still
            -- read "strict" (they hold the shared lock) has ended
            UPDATE stress_phase SET strict = false;
            COMMIT;
            PERFORM pg_advisory_xact_lock(4242);
            COMMIT;
            v_strict := false;
        END IF;
        r := random();
        SELECT s.shape, s.typ INTO v_shape, v_typ FROM stress_shapes s ORDER BY random() LIMIT 1;
        act := CASE WHEN r < 0.35 THEN 'register' WHEN r < 0.50 THEN 'add' WHEN r < 0.65 THEN 'drop'
                    WHEN r < 0.75 THEN 'retype' WHEN r < 0.87 THEN 'rollback' WHEN r < 0.95 THEN 'replace'
                    ELSE 'recreate' END;
        IF act = 'recreate' THEN
            v_shape := 'StB';
            v_typ := to_regtype('st_b');   -- (a 'st_b'::regtype constant would be planned once)
        END IF;
        det := NULL;
        failed := NULL;
        IF v_strict AND act NOT IN ('register', 'replace', 'rollback') THEN
            PERFORM pg_advisory_xact_lock(4242);   -- type DDL waits for the decoders (strict phase)
        END IF;
        BEGIN
            IF act IN ('register', 'replace', 'recreate') THEN
                v_k := stress_k(v_shape) + 1;
                IF act = 'replace' THEN
                    PERFORM serde_unregister(v_shape);
                ELSIF act = 'recreate' THEN
                    SELECT string_agg(format('%I %s', attname, format_type(atttypid, atttypmod)), ', ' ORDER BY attnum)
                      INTO cols FROM pg_attribute WHERE attrelid = to_regclass('st_b') AND attnum > 0 AND NOT attisdropped;
                    DROP TYPE st_b;
                    EXECUTE format('CREATE TYPE st_b AS (%s)', cols);
                    v_typ := to_regtype('st_b');
                    UPDATE stress_shapes SET typ = v_typ WHERE shape = 'StB';
                END IF;
                PERFORM serde_register(v_shape, v_typ, stress_options(v_shape, v_k));
                INSERT INTO stress_log (shape, k) VALUES (v_shape, v_k);
                det := 'k ' || v_k;
            ELSIF act = 'add' THEN
                SELECT g INTO i FROM generate_series(1, 40) g
                 WHERE NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid = typrelid(v_typ)
                                      AND attname = 'x' || g AND NOT attisdropped)
                 ORDER BY random() LIMIT 1;
                IF i IS NOT NULL THEN
                    EXECUTE format('ALTER TYPE %s ADD ATTRIBUTE x%s int4', v_typ, i);
                    det := 'x' || i;
                END IF;
            ELSIF act IN ('drop', 'retype') THEN
                SELECT substr(attname, 2)::int INTO i FROM pg_attribute
                 WHERE attrelid = typrelid(v_typ) AND attname ~ '^x[0-9]+$' AND NOT attisdropped
                 ORDER BY random() LIMIT 1;
                IF i IS NOT NULL AND act = 'drop' THEN
                    EXECUTE format('ALTER TYPE %s DROP ATTRIBUTE x%s', v_typ, i);
                    det := 'x' || i;
                ELSIF i IS NOT NULL THEN
                    SELECT CASE WHEN atttypid = 'int4'::regtype THEN 'int8' ELSE 'int4' END INTO det
                      FROM pg_attribute WHERE attrelid = typrelid(v_typ) AND attname = 'x' || i;
                    EXECUTE format('ALTER TYPE %s ALTER ATTRIBUTE x%s TYPE %s', v_typ, i, det);
                    det := 'x' || i || ' ' || det;
                END IF;
            ELSE   -- rollback
                PERFORM serde_register(v_shape, v_typ, stress_options(v_shape, -1));
                PERFORM pg_sleep(0.02);
                RAISE EXCEPTION USING ERRCODE = 'SR001', MESSAGE = 'planned rollback';
            END IF;
        EXCEPTION WHEN OTHERS THEN
            GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
            IF st <> 'SR001' THEN
                failed := st || ': ' || msg;
            END IF;
        END;
        INSERT INTO stress_changes (strict, action, shape, detail, failed) VALUES (v_strict, act, v_shape, det, failed);
        COMMIT;
        PERFORM pg_sleep(random() * 0.02);
    END LOOP;
END $p$;

-- typrelid(regtype): the pg_class row of a composite type
CREATE FUNCTION typrelid(t regtype) RETURNS oid LANGUAGE sql STABLE AS $$
    SELECT typrelid FROM pg_type WHERE oid = t
$$;

-- the errors the race phase tolerates (see the top of this file); the strict phase tolerates none
CREATE FUNCTION stress_tolerated(p_sqlstate text, p_message text) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
    SELECT p_sqlstate IN ('42704', '42804', '22P07')
        -- 'cache lookup failed for type <n>': DROP TYPE racing the statement (TESTING.md, stress
        -- finding 4); seen in the race phase, never in the strict one
        OR (p_sqlstate = 'XX000' AND (p_message LIKE 'cache lookup failed for type %'
                                      OR p_message LIKE 'could not open relation with OID %'
                                      OR p_message LIKE 'cache lookup failed for relation %'
                                      OR p_message = 'function in FROM has unsupported return type'))
$$;
