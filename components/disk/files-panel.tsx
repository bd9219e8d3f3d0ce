import Link from "next/link";
import { revealInvisible } from "@/lib/text/reveal-invisible";
import { UntrustedText } from "@/components/ui/untrusted-text";
import { FileIcon, Folder, FolderOpen } from "lucide-react";
import { EmptyState } from "@/components/ui/empty-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { Actor } from "@/lib/actor";
import type { ActionResult } from "@/lib/auth/owner-action";
import { getDb } from "@/lib/db/client";
import { folderCursor, listFolder } from "@/lib/disk/list-folder";
import { Pagination } from "@/components/ui/pagination";
import { DeleteButton } from "@/components/disk/delete-button";
import { CreateLinkDialog, DownloadButton } from "@/components/disk/file-actions";
import { FileUpload } from "@/components/disk/file-upload";
import { diskHref, formatBytes } from "@/components/disk/format";

type PathAction<I, T> = (input: I) => Promise<ActionResult<T>>;
type Props = {
  actor: Actor;
  /** The open folder, `""` or ending in `/`. */
  folder: string;
  /** The page: entries after or before a folderCursor, from the URL. */
  after?: string;
  before?: string;
  startUploadAction: PathAction<{ path: string; size: number; contentType?: string }, { uploadId: string; url: string; headers: Record<string, string> }>;
  completeUploadAction: PathAction<{ path: string; uploadId: string }, unknown>;
  deleteFileAction: PathAction<{ path: string }, unknown>;
  downloadUrlAction: PathAction<{ path: string }, { url: string }>;
  createLinkAction: PathAction<{ path: string; expiresIn: number }, { url: string; expires_at: string; link_id: string }>;
};

/** Files as a folder tree by `/`: breadcrumbs, sub-folders, files with size, type and date; upload into the folder. */
export async function FilesPanel(props: Props) {
  const { actor, folder } = props;
  const { entries, hasPrev, hasNext } = await listFolder(await getDb(), { actor, folder, after: props.after, before: props.before });
  const dir = folder || undefined;
  const paged = props.after !== undefined || props.before !== undefined;
  const parts = folder.split("/").filter(Boolean);
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <nav aria-label="Folder" className="flex flex-wrap items-center gap-1 pt-1 font-mono text-sm">
          <Link href={diskHref({ tab: "files" })} className="hover:underline">
            Files
          </Link>
          {parts.map((p, i) => {
            const dir = `${parts.slice(0, i + 1).join("/")}/`;
            return (
              <span key={dir} className="flex items-center gap-1">
                <span className="text-muted-foreground">/</span>
                <Link href={diskHref({ tab: "files", dir })} className="hover:underline">
                  <UntrustedText text={p} />
                </Link>
              </span>
            );
          })}
        </nav>
        <FileUpload folder={folder} startAction={props.startUploadAction} completeAction={props.completeUploadAction} />
      </div>
      {entries.length === 0 && paged ? (
        // A page cursor past the folder's end (its last entries were deleted since): not an empty folder.
        <EmptyState
          icon={FolderOpen}
          title="No more entries here"
          description="The entries this page started from were deleted or renamed."
          action={
            <Link href={diskHref({ tab: "files", dir })} className="text-sm underline">
              First page of this folder
            </Link>
          }
        />
      ) : entries.length === 0 ? (
        <EmptyState
          icon={FolderOpen}
          title={folder ? "This folder is empty" : "No files yet"}
          description="Agents save files with file_put (inline up to 1 MB, presigned uploads up to 100 MB). Upload from here too."
        />
      ) : (
        <div className="rounded-lg border">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead className="pl-4">Name</TableHead>
                <TableHead className="text-right">Size</TableHead>
                <TableHead>Type</TableHead>
                <TableHead>Updated</TableHead>
                <TableHead className="pr-4">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {entries.map((e) => {
                const path = `${folder}${e.name}`;
                return (
                  <TableRow key={`${e.isFolder}:${e.name}`} data-path={e.isFolder ? `${path}/` : path}>
                    <TableCell className="max-w-96 truncate pl-4">
                      {e.isFolder ? (
                        <Link href={diskHref({ tab: "files", dir: `${path}/` })} className="inline-flex items-center gap-2 font-medium hover:underline">
                          <Folder className="size-4 text-muted-foreground" aria-hidden />
                          <UntrustedText text={e.name} />/
                        </Link>
                      ) : (
                        <span className="inline-flex items-center gap-2" title={revealInvisible(path)}>
                          <FileIcon className="size-4 text-muted-foreground" aria-hidden />
                          <UntrustedText text={e.name} />
                        </span>
                      )}
                    </TableCell>
                    <TableCell className="text-right text-muted-foreground tabular-nums">{formatBytes(e.sizeBytes)}</TableCell>
                    <TableCell className="text-muted-foreground">
                      {e.isFolder ? `${e.files.toLocaleString("en")} file${e.files === 1 ? "" : "s"}` : e.contentType}
                    </TableCell>
                    <TableCell className="text-muted-foreground">
                      <RelativeTime date={e.updatedAt} />
                    </TableCell>
                    <TableCell className="pr-4 text-right whitespace-nowrap">
                      {!e.isFolder && (
                        <>
                          <DownloadButton path={path} urlAction={props.downloadUrlAction} />
                          <CreateLinkDialog path={path} linkAction={props.createLinkAction} />
                          <DeleteButton
                            name={path}
                            kind="file"
                            description="Its links stop working at once and its content is erased within minutes."
                            onDelete={props.deleteFileAction.bind(null, { path })}
                          />
                        </>
                      )}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
      {entries.length > 0 && (hasPrev || hasNext) && (
        <Pagination
          prevHref={hasPrev ? diskHref({ tab: "files", dir, before: folderCursor(entries[0]) }) : null}
          nextHref={hasNext ? diskHref({ tab: "files", dir, after: folderCursor(entries[entries.length - 1]) }) : null}
        />
      )}
    </div>
  );
}
