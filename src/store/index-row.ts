/** One row of the run index, column by column, as SQLite stores it. */
export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;
