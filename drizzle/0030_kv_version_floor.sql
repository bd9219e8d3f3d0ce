-- A key's versions never repeat across a delete: `if_version` (and REST If-Match) must never match a key written
-- again after the version was read. Deleting or purging a key raises its project's floor to the key's version, and
-- a new key starts above the floor (lib/disk/write-entry.ts). Keys deleted before this migration left no trace, so
-- the floor starts at 0.
ALTER TABLE "disk_usage" ADD COLUMN "kv_version_floor" integer DEFAULT 0 NOT NULL;
