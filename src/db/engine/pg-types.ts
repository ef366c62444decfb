import pg from 'pg';

// Imported for its effect by both engines' openers, before any query runs:
// int8 (bigint ids, counts) arrive as strings; timestamps as Date objects.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => value);
