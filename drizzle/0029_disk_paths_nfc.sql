-- Disk paths are stored in Unicode NFC from now on: every way in (tools, REST, dashboard) normalises the path it is
-- given (lib/disk/path-rules.ts, diskPath), so a file stored under a decomposed spelling (NFD, as macOS names files)
-- would no longer be found by the name it is listed under. Each such file takes its NFC spelling. Where that path is
-- taken (the project already has the composed twin, or two other spellings meet), nothing is dropped or overwritten:
-- the file keeps its bytes under the NFC name with its id before the extension (`café (fil_…).txt`), which no other
-- path holds, so the owner can still see, read and delete it. Open uploads follow (their path must match at
-- complete). Inbound attachments (evt_…/name) keep their names, as diskPath leaves them.
WITH "spelled" AS (
  SELECT "id", "project_id", normalize("path", NFC) AS "nfc",
         row_number() OVER (PARTITION BY "project_id", normalize("path", NFC) ORDER BY "updated_at" DESC, "id") AS "n"
  FROM "disk_files"
  WHERE "path" IS NOT NFC NORMALIZED
)
UPDATE "disk_files" AS "f" SET "path" = CASE
    WHEN "s"."n" = 1 AND NOT EXISTS (SELECT 1 FROM "disk_files" AS "t" WHERE "t"."project_id" = "s"."project_id" AND "t"."path" = "s"."nfc")
      THEN "s"."nfc"
    ELSE regexp_replace("s"."nfc", '([^/])(\.[^./]{1,32})?$', '\1 (' || "f"."id" || ')\2')
  END
FROM "spelled" AS "s"
WHERE "f"."id" = "s"."id";
--> statement-breakpoint
UPDATE "disk_uploads" SET "path" = normalize("path", NFC) WHERE "path" IS NOT NFC NORMALIZED;
