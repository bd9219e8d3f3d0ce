import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailEvents } from "@/lib/db/schema/mail-events";
import { addDomain } from "@/lib/mail/domains/add-domain";
import { checkDomainDns, type DomainDns } from "@/lib/mail/domains/check-domain-dns";
import { dkimRecordName } from "@/lib/mail/domains/dns-records";
import { seedProject } from "@/lib/testing/seed";

/**
 * Two "check DNS" calls at once on an unverified domain whose DKIM record is published. Before, each read the row
 * (verifiedAt null), waited on DNS, then decided from that read that it was "the first check that verifies it":
 * `domain.verified` was emitted twice, and every subscribed webhook got two deliveries.
 */
let seeded: Awaited<ReturnType<typeof seedProject>>;
beforeAll(async () => {
  seeded = await seedProject({ name: "Verified twice" });
});

// Real concurrency: PostgreSQL only (PGlite runs one transaction at a time).
describe.skipIf(!process.env.DATABASE_URL?.startsWith("postgres"))("concurrent domain checks", () => {
  it("emits domain.verified once when two checks verify the domain at the same time", async () => {
    const db = await getDb();
    const d = await db.transaction((tx) => addDomain(tx, { actor: seeded.actor, domain: "twice.example.org" }));
    let arrived = 0;
    let open: () => void = () => {};
    const bothIn = new Promise<void>((r) => {
      open = r;
    });
    const dns: DomainDns = {
      resolveMx: async () => {
        arrived += 1;
        if (arrived === 2) open();
        await bothIn;
        return [];
      },
      resolveTxt: async (name) => {
        await bothIn;
        if (name === dkimRecordName(d)) return [[`v=DKIM1; k=rsa; p=${d.dkimPublicKey}`]];
        return [];
      },
    };
    const checks = await Promise.all([0, 1].map(() => db.transaction((tx) => checkDomainDns(tx, { actor: seeded.actor, domainId: d.id, dns }))));
    expect(checks.every((r) => r?.verifiedAt)).toBe(true);
    const emitted = await db
      .select({ id: mailEvents.id })
      .from(mailEvents)
      .where(and(eq(mailEvents.projectId, seeded.project.id), eq(mailEvents.type, "domain.verified")));
    expect(emitted).toHaveLength(1);
  });
});
