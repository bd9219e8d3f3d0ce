/**
 * Brynth's API on the fast path with its job runner, for bench/mail-send.ts and bench/mail-approval.ts, on DATABASE_URL: outside mail goes to
 * SMTP_RELAY_URL (the bench's sink). Seeds a project and one mailbox and prints
 * `ready <url> <key> <mailbox id> <project id>` (with SEED=0 it only serves and runs jobs: `ready <url>`).
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
  const db = await getDb();
  const runner = new JobRunner(db, { concurrency: Number(process.env.JOBS_CONCURRENCY ?? 8), pollMs: 200, onError: (e) => console.error(e) });
  // A second instance on the same database (bench/mail-scheduled.ts) only serves and runs jobs.
  if (process.env.SEED === "0") {
    await runner.start();
    console.log(`ready ${url}`);
    return;
  }
  const { secret, project } = await seedProject({ name: `bench ${process.pid}` });
  const domain = await ensureDefaultDomain(db);
  const id = newId("mbx");
  await db
    .insert(mailboxes)
    .values({ id, projectId: project.id, domainId: domain.id, localPart: `sender-${process.pid}`, address: `sender-${process.pid}@${domain.domain}` });
  await runner.start();
  console.log(`ready ${url} ${secret} ${id} ${project.id}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
