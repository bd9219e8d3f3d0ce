-- A public link (file_url) names the file it was made for in disk_links.path: the dashboard's links panel lists the
-- link under it, and a download through the link is named after it. Links are served by their id and bound to the
-- file's id, never looked up by path, so 0029 (disk paths in NFC) left every link working; but it renamed the files
-- and not their links. A link to a file stored decomposed (NFD) kept that spelling, and where 0029 named the file
-- with its id because its composed twin existed, the panel said the link shares `café.pdf` (the twin, a file it
-- never served) while it serves `café (fil_…).pdf`. A link to a file that still exists takes the path 0029 gave the
-- file, the name the file is listed under now; no name is made here, so none can collide or outgrow the path limits
-- that 0029's did not. Links whose file is gone serve nothing and are listed nowhere, and links to inbound
-- attachments (evt_…/name) keep the email's spelling, as the attachments do.
UPDATE "disk_links" AS "l" SET "path" = "f"."path"
FROM "disk_files" AS "f"
WHERE "f"."project_id" = "l"."project_id" AND "f"."id" = "l"."file_id" AND "l"."path" IS NOT NFC NORMALIZED;
