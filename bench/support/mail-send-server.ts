/**
 * Brynth's API on the fast path with its job runner, for bench/mail-send.ts and bench/mail-approval.ts, on DATABASE_URL: outside mail goes to
 * SMTP_RELAY_URL (the bench's sink). Seeds a project and one mailbox and prints
 * `ready <url> <key> <mailbox id> <project id>`.
 */
import { getDb } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { JobRunner } from "@/lib/jobs/job-runner";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { listenApi } from "@/lib/testing/listen-api";
import { seedProject } from "@/lib/testing/seed";

process.on("SIGTERM", () => process.exit(0));

async function main() {
  const { url } = await listenApi();
  const { secret, project } = await seedProject({ name: `bench ${process.pid}` });
  const db = await getDb();
  const domain = await ensureDefaultDomain(db);
  const id = newId("mbx");
  await db
    .insert(mailboxes)
    .values({ id, projectId: project.id, domainId: domain.id, localPart: `sender-${process.pid}`, address: `sender-${process.pid}@${domain.domain}` });
  await new JobRunner(db, { concurrency: Number(process.env.JOBS_CONCURRENCY ?? 8), pollMs: 200, onError: (e) => console.error(e) }).start();
  console.log(`ready ${url} ${secret} ${id} ${project.id}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
