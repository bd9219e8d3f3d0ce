import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { closeDb } from "@/lib/db/client";
import { migrateDb } from "@/lib/db/migrate";
import { resetEnvCache } from "@/lib/env";
import { randomBase62 } from "@/lib/ids";

/**
 * A database initdb made under a C locale without --encoding is SQL_ASCII. Brynth's migrations normalise text
 * (0029's NFC paths), which PostgreSQL refuses there, so an instance failed at start-up mid-upgrade with "Unicode
 * normalization can only be performed if server encoding is UTF8". It now says what to do before anything runs.
 */
// Read as the file loads: the server's URL (the test database's own is set later, by setup-db.ts).
const admin = process.env.DATABASE_URL?.startsWith("postgres") ? process.env.DATABASE_URL : undefined;
let ownUrl: string | undefined;
const name = `brynth_ascii_${randomBase62(8).toLowerCase()}`;

afterAll(async () => {
  if (!admin || !ownUrl) return;
  await closeDb();
  process.env.DATABASE_URL = ownUrl;
  resetEnvCache();
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists "${name}" with (force)`);
  await sql.end();
});

describe.runIf(admin)("migrations on a database that is not UTF8", () => {
  it("refuse before any migration runs, saying how to make a UTF8 one", async () => {
    const sql = postgres(admin!, { max: 1, onnotice: () => {} });
    await sql.unsafe(`create database "${name}" encoding 'SQL_ASCII' lc_collate 'C' lc_ctype 'C' template template0`);
    await sql.end();
    const url = new URL(admin!);
    url.pathname = `/${name}`;
    await closeDb();
    ownUrl = process.env.DATABASE_URL;
    process.env.DATABASE_URL = url.toString();
    resetEnvCache();
    await expect(migrateDb()).rejects.toThrow(`Database ${name} is encoded SQL_ASCII; Brynth needs UTF8.`);
    const check = postgres(url.toString(), { max: 1, onnotice: () => {} });
    const [{ n }] = await check`select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')`;
    await check.end();
    expect(n).toBe(0);
  });
});
