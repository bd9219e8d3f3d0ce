import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";

/**
 * On PostgreSQL (DATABASE_URL set): migrate one template database per run; each test file then gets its own
 * database copied from it in milliseconds (setup-db.ts). On PGlite each file gets an in-memory database.
 */
export default async function setup(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (!url || !/^postgres(ql)?:\/\//.test(url)) {
    project.provide("dbTemplate", "");
    return;
  }
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
  }
}
