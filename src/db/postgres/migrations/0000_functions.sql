-- SQLite's scalar functions that Cairn's one SQL text uses, for PostgreSQL.
--
-- instr(text, part): the 1-based position of `part` in `text`, 0 when absent (PostgreSQL's strpos).
CREATE FUNCTION instr(value text, part text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT strpos(value, part)
$$;
--
-- glob(pattern, value): SQLite's GLOB, case-sensitive, with `*` (any run), `?` (one character)
-- and `[...]` classes (`[^...]` negated). Cairn's word matching (core/word-match.ts) spells case
-- with classes (`[eE]`), so the answers are those of SQLite on text of any script.
CREATE FUNCTION glob_regex(pattern text) RETURNS text LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  out text := '^';
  i integer := 1;
  n integer := length(pattern);
  c text;
  j integer;
BEGIN
  WHILE i <= n LOOP
    c := substr(pattern, i, 1);
    IF c = '*' THEN
      out := out || '.*';
    ELSIF c = '?' THEN
      out := out || '.';
    ELSIF c = '[' THEN
      -- A class runs to the next `]` after its first character (so `[]]` holds `]`).
      j := i + 2;
      WHILE j <= n AND substr(pattern, j, 1) <> ']' LOOP
        j := j + 1;
      END LOOP;
      IF j > n THEN
        out := out || '\[';
      ELSE
        out := out || '[' || replace(replace(substr(pattern, i + 1, j - i - 1), '\', '\\'), '[', '\[') || ']';
        i := j;
      END IF;
    ELSE
      out := out || regexp_replace(c, '([.^$|()\[\]{}*+?\\])', '\\\1', 'g');
    END IF;
    i := i + 1;
  END LOOP;
  RETURN out || '$';
END
$$;

CREATE FUNCTION glob(pattern text, value text) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT value COLLATE "C" ~ glob_regex(pattern)
$$;
