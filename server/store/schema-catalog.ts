// What a database's schema holds, read from its catalog, as one line per fact: "column merchants.id" → "type=TEXT
// notnull=1 …". Two catalogs of the same provider compare equal exactly when the schemas match (npm run
// db:check-drift). Also the scratch PostgreSQL databases the comparison builds.
import type BetterSqlite3 from "better-sqlite3";
import type pg from "pg";

export type Catalog = Map<string, string>;

/** The catalog of a SQLite database, leaving out the `ignored` tables. */
export function sqliteCatalog(db: BetterSqlite3.Database, ignored: ReadonlySet<string>): Catalog {
  const catalog: Catalog = new Map();
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as { name: string }[];
  for (const { name: table } of tables) {
    if (ignored.has(table)) continue;
    catalog.set(`table ${table}`, "exists");
    const quoted = `"${table.replace(/"/g, '""')}"`;
    for (const c of db.prepare(`PRAGMA table_info(${quoted})`).all() as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
      pk: number;
    }[]) {
      catalog.set(
        `column ${table}.${c.name}`,
        `type=${c.type} notnull=${c.notnull} default=${c.dflt_value ?? "none"} pk=${c.pk}`,
      );
    }
    for (const index of db.prepare(`PRAGMA index_list(${quoted})`).all() as {
      name: string;
      unique: number;
      origin: string;
      partial: number;
    }[]) {
      const columns = (
        db.prepare(`PRAGMA index_info("${index.name.replace(/"/g, '""')}")`).all() as {
          seqno: number;
          name: string | null;
        }[]
      )
        .sort((x, y) => x.seqno - y.seqno)
        .map((column) => column.name ?? "<expression>");
      catalog.set(
        `index ${table}.${index.name}`,
        `unique=${index.unique} origin=${index.origin} partial=${index.partial} columns=(${columns.join(", ")})`,
      );
    }
    const foreignKeys = db.prepare(`PRAGMA foreign_key_list(${quoted})`).all() as {
      id: number;
      seq: number;
      table: string;
      from: string;
      to: string;
      on_update: string;
      on_delete: string;
    }[];
    for (const id of new Set(foreignKeys.map((fk) => fk.id))) {
      const parts = foreignKeys.filter((fk) => fk.id === id).sort((x, y) => x.seq - y.seq);
      const from = parts.map((fk) => fk.from).join(", ");
      catalog.set(
        `foreign key ${table}(${from})`,
        `references ${parts[0].table}(${parts.map((fk) => fk.to).join(", ")}) on update ${parts[0].on_update} on delete ${parts[0].on_delete}`,
      );
    }
  }
  return catalog;
}

/** The catalog of a PostgreSQL database's public schema, leaving out the `ignored` tables. */
export async function postgresCatalog(client: pg.Client, ignored: ReadonlySet<string>): Promise<Catalog> {
  const catalog: Catalog = new Map();
  const ignoredTables = [...ignored];
  const columns = await client.query(
    `SELECT table_name, column_name, data_type, is_nullable, column_default, character_maximum_length, numeric_precision, udt_name
       FROM information_schema.columns WHERE table_schema = 'public' AND NOT (table_name = ANY($1)) ORDER BY table_name, column_name`,
    [ignoredTables],
  );
  for (const c of columns.rows) {
    catalog.set(`table ${c.table_name}`, "exists");
    catalog.set(
      `column ${c.table_name}.${c.column_name}`,
      `type=${c.data_type}(${c.udt_name}${c.character_maximum_length ? `, ${c.character_maximum_length}` : ""}) nullable=${c.is_nullable} default=${c.column_default ?? "none"}`,
    );
  }
  const indexes = await client.query(
    `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND NOT (tablename = ANY($1))`,
    [ignoredTables],
  );
  for (const index of indexes.rows) catalog.set(`index ${index.tablename}.${index.indexname}`, index.indexdef);
  const constraints = await client.query(
    `SELECT rel.relname AS table_name, con.conname, con.contype, pg_get_constraintdef(con.oid) AS definition
       FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace
      WHERE ns.nspname = 'public' AND NOT (rel.relname = ANY($1))`,
    [ignoredTables],
  );
  for (const c of constraints.rows)
    catalog.set(`constraint ${c.table_name}.${c.conname}`, `${c.contype}: ${c.definition}`);
  const enums = await client.query(
    `SELECT t.typname, string_agg(e.enumlabel, ', ' ORDER BY e.enumsortorder) AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace ns ON ns.oid = t.typnamespace
      WHERE ns.nspname = 'public' GROUP BY t.typname`,
  );
  for (const e of enums.rows) catalog.set(`enum ${e.typname}`, e.labels);
  return catalog;
}

/** Creates an empty PostgreSQL database (`name` is ours: letters, digits and _ only). */
export async function createPostgresDatabase(admin: pg.Client, name: string): Promise<void> {
  await admin.query(`CREATE DATABASE ${name}`);
}

/** Drops a PostgreSQL database, closing its connections. */
export async function dropPostgresDatabase(admin: pg.Client, name: string): Promise<void> {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
