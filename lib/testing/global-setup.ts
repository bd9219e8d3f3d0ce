import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { pgliteExtensions } from "@/lib/db/pglite-extensions";

/**
 * On PostgreSQL (DATABASE_URL set): migrate one template database per run; each test file then gets its own
 * database copied from it in milliseconds (setup-db.ts). On PGlite the same: one in-memory database migrated here and
 * dumped to a file that each test file's in-memory database loads, instead of paying initdb and the migrations again.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    project.provide("dbTemplate", "");
    const dir = mkdtempSync(join(tmpdir(), "brynth-pglite-template-"));
    const file = join(dir, "pgdata.tar.gz");
    const pglite = await PGlite.create("memory://", { extensions: pgliteExtensions });
    await migratePglite(drizzlePglite({ client: pglite }), { migrationsFolder: "drizzle" });
    writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir("gzip")).arrayBuffer()));
    await pglite.close();
    project.provide("pgliteTemplate", file);
    return () => rmSync(dir, { recursive: true, force: true });
  }
  project.provide("pgliteTemplate", "");
  const template = `brynth_tpl_${process.pid}_${Date.now()}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${template}"`);
  const target = new URL(url);
  target.pathname = `/${template}`;
  const sql = postgres(target.toString(), { max: 1, onnotice: () => {} });
  await migrate(drizzle(sql), { migrationsFolder: "drizzle" });
  await sql.end();
  project.provide("dbTemplate", template);
  return async () => {
    // Each test file drops its own database; concurrent runs on the same server keep theirs.
    await admin.unsafe(`drop database if exists "${template}" with (force)`);
    await admin.end();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    dbTemplate: string;
    /** The migrated PGlite data directory (a gzipped tarball) each test file loads; empty on PostgreSQL. */
    pgliteTemplate: string;
  }
}
