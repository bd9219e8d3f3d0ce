-- Two things 0029 (disk paths in NFC) left undone, files first so that links take their final names.
--
-- 0029 could leave a file out of reach: a twin's name with its id added (` (fil_…)`, 29 bytes) can pass the
-- 255 bytes a file or folder name may have, or the 1024 of a whole path, and every way in (file_get, file_url,
-- file_delete, the dashboard) refuses such a path as invalid before looking for it. Such a file keeps its id and
-- extension and as much of its name as fits (cut between characters), as a path no other file holds. Nothing else
-- stores a path over the limits, so only those files are renamed; their links follow below.
WITH "parts" AS (
  SELECT "id", coalesce(substring("path" from '^(.*/)[^/]*$'), '') AS "dir",
         regexp_replace("path", '^.*/', '') AS "name",
         coalesce(substring("path" from '[^/](\.[^./]{1,32})$'), '') AS "ext"
  FROM "disk_files"
  WHERE octet_length(regexp_replace("path", '^.*/', '')) > 255 OR octet_length("path") > 1024
), "cut" AS (
  SELECT "id", "dir", "ext",
         regexp_replace(left("name", char_length("name") - char_length("ext")), ' \(' || "id" || '\)$', '') AS "stem",
         least(255, 1024 - octet_length("dir")) - octet_length(' (' || "id" || ')' || "ext") AS "budget"
  FROM "parts"
)
UPDATE "disk_files" AS "f" SET "path" = "c"."dir" || left("c"."stem", (
    SELECT coalesce(max("n"), 0) FROM generate_series(0, char_length("c"."stem")) AS "n"
    WHERE octet_length(left("c"."stem", "n")) <= "c"."budget"
  )) || ' (' || "c"."id" || ')' || "c"."ext"
FROM "cut" AS "c"
WHERE "f"."id" = "c"."id";
--> statement-breakpoint
-- A public link (file_url) names the file it was made for in disk_links.path: the dashboard's links panel lists the
-- link under it, and a download through the link is named after it. Links are served by their id and bound to the
-- file's id, never looked up by path, so 0029 left every link working; but it renamed the files and not their links. A
-- link to a file stored decomposed (NFD) kept that spelling, and where 0029 named the file with its id because its
-- composed twin existed, the panel said the link shares `café.pdf` (the twin, a file it never served) while it serves
-- `café (fil_…).pdf`. A link to a file that still exists takes the path the file has now, the name it is listed under;
-- no name is made here, so none can collide or outgrow the limits. Links whose file is gone serve nothing and are
-- listed nowhere, and links to inbound attachments (evt_…/name) keep the email's spelling, as the attachments do.
UPDATE "disk_links" AS "l" SET "path" = "f"."path"
FROM "disk_files" AS "f"
WHERE "f"."project_id" = "l"."project_id" AND "f"."id" = "l"."file_id" AND "l"."path" IS NOT NFC NORMALIZED;
