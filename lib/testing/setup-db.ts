import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, inject } from "vitest";
import postgres from "postgres";
import { closeDb, setMemoryTemplate } from "@/lib/db/client";
import { migrateDb } from "@/lib/db/migrate";
import { resetEnvCache } from "@/lib/env";
import { randomBase62 } from "@/lib/ids";

/** Each test file gets a database of its own: a copy of the migrated template, on Postgres or in-memory PGlite. */
const baseUrl = process.env.DATABASE_URL;
const template = inject("dbTemplate");
const pgliteTemplate = inject("pgliteTemplate");
let dbName: string | undefined;

process.env.DATA_DIR = mkdtempSync(join(tmpdir(), "brynth-test-"));

beforeAll(async () => {
  if (template && baseUrl) {
    dbName = `brynth_t_${randomBase62(10).toLowerCase()}`;
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database "${dbName}" template "${template}"`);
    await admin.end();
    const url = new URL(baseUrl);
    url.pathname = `/${dbName}`;
    process.env.DATABASE_URL = url.toString();
    process.env.TEST_ADMIN_DATABASE_URL = baseUrl;
  } else {
    process.env.DATABASE_URL = "memory://";
    if (pgliteTemplate) setMemoryTemplate(new Blob([readFileSync(pgliteTemplate)]));
  }
  resetEnvCache();
  await migrateDb();
});

afterAll(async () => {
  await closeDb();
  if (dbName && baseUrl) {
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
});
