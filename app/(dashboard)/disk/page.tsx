import type { Metadata } from "next";
import { z } from "zod";
import { PageHeader } from "@/components/ui/page-header";
import { DiskTabs, type DiskTab } from "@/components/disk/disk-tabs";
import { FilesPanel } from "@/components/disk/files-panel";
import { KeysPanel } from "@/components/disk/keys-panel";
import { LinksPanel } from "@/components/disk/links-panel";
import { StatesPanel } from "@/components/disk/states-panel";
import { UsageBars } from "@/components/disk/usage-bars";
import { pageParams } from "@/lib/http/page-params";
import { requireOwner } from "@/lib/auth/current-owner";
import { getDb } from "@/lib/db/client";
import { MAX_BYTES, MAX_KEYS, MONTHLY_DOWNLOAD_BYTES } from "@/lib/disk/limits";
import { getUsage } from "@/lib/disk/usage";
import {
  completeUploadAction,
  createLinkAction,
  deleteFileAction,
  deleteKeyAction,
  downloadUrlAction,
  revokeLinkAction,
  saveKeyAction,
  startUploadAction,
} from "./actions";

export const metadata: Metadata = { title: "Disk" };

// A value past the limit is dropped (the screen opens unfiltered), never thrown: parse() would fail the page.
const one = z.string().max(2000).optional().catch(undefined);
const search = z.object({
  tab: z.enum(["keys", "states", "files", "links"]).catch("keys").default("keys"),
  prefix: one,
  after: one,
  before: one,
  key: one,
  dir: one,
  cursor: one,
});

type Search = Promise<Record<string, string | string[] | undefined>>;

export default async function DiskPage({ searchParams }: { searchParams: Search }) {
  const { actor } = await requireOwner();
  const q = search.parse(pageParams(await searchParams));
  const tab: DiskTab = q.tab;
  const usage = await getUsage(await getDb(), actor.projectId);
  // A folder is "" or ends with "/"; anything else from the URL is normalised to that shape.
  const dir = (q.dir ?? "").split("/").filter(Boolean).join("/");
  const folder = dir ? `${dir}/` : "";

  return (
    <>
      <PageHeader title="Disk" description="Key-value, task states and files that agents share through the disk tools.">
        <DiskTabs current={tab} />
      </PageHeader>
      <UsageBars
        keys={usage.keys}
        maxKeys={MAX_KEYS}
        bytes={usage.bytes}
        maxBytes={MAX_BYTES}
        downloads={usage.downloadBytes}
        maxDownloads={MONTHLY_DOWNLOAD_BYTES}
      />
      {tab === "keys" && (
        <KeysPanel
          actor={actor}
          prefix={q.prefix ?? ""}
          after={q.after}
          before={q.before}
          selected={q.key}
          saveAction={saveKeyAction}
          deleteAction={deleteKeyAction}
        />
      )}
      {tab === "states" && (
        <StatesPanel actor={actor} after={q.after} before={q.before} selected={q.key} saveAction={saveKeyAction} deleteAction={deleteKeyAction} />
      )}
      {tab === "files" && (
        <FilesPanel
          actor={actor}
          folder={folder}
          after={q.after}
          before={q.before}
          startUploadAction={startUploadAction}
          completeUploadAction={completeUploadAction}
          deleteFileAction={deleteFileAction}
          downloadUrlAction={downloadUrlAction}
          createLinkAction={createLinkAction}
        />
      )}
      {tab === "links" && <LinksPanel actor={actor} cursor={q.cursor} revokeAction={revokeLinkAction} />}
    </>
  );
}
