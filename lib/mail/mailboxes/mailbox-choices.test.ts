import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { mailboxes } from "@/lib/db/schema/mail";
import { newId } from "@/lib/ids";
import { ensureDefaultDomain } from "@/lib/mail/domains/default-domain";
import { mailboxChoices, PICKER_MAILBOXES, pickerMailboxes } from "@/lib/mail/mailboxes/mailbox-choices";
import { seedProject } from "@/lib/testing/seed";

describe("a mailbox picker's choices", () => {
  it("include the chosen mailbox even past the first 500 (the Lists screen said it was not found), and no deleted one", async () => {
    const seeded = await seedProject({ name: "Many mailboxes" });
    const db = await getDb();
    const domain = await ensureDefaultDomain(db);
    const t0 = Date.now() - 3600_000;
    const rows = Array.from({ length: PICKER_MAILBOXES + 2 }, (_, i) => {
      const localPart = `many-${i}-${newId("x").slice(2, 8).toLowerCase()}`;
      return {
        id: newId("mbx"),
        projectId: seeded.project.id,
        domainId: domain.id,
        localPart,
        address: `${localPart}@${domain.domain}`,
        createdAt: new Date(t0 + i),
      };
    });
    await db.insert(mailboxes).values(rows);
    const last = rows[rows.length - 1];
    const { options, chosen } = await mailboxChoices(db, seeded.actor, last.id);
    expect(chosen?.id).toBe(last.id);
    expect(options[0].id).toBe(last.id);
    expect(options.filter((o) => o.id === last.id)).toHaveLength(1);
    const within = await mailboxChoices(db, seeded.actor, rows[3].id);
    expect(within.options.filter((o) => o.id === rows[3].id)).toHaveLength(1);
    // The API keys and Webhooks screens: past the first 500 the owner types an address (`more`), and the mailboxes a
    // webhook watches are offered whatever their place (unshown, an edit of the webhook dropped them).
    const picker = await pickerMailboxes(db, seeded.actor, [last.id, rows[3].id, last.id, "mbx_nope"]);
    expect(picker.more).toBe(true);
    expect(picker.options.map((o) => o.id).filter((id) => id === last.id || id === rows[3].id)).toEqual([last.id, rows[3].id]);
    expect(picker.options).toHaveLength(PICKER_MAILBOXES + 1);
    await db.update(mailboxes).set({ deletedAt: new Date() }).where(eq(mailboxes.id, last.id));
    expect((await mailboxChoices(db, seeded.actor, last.id)).chosen).toBeUndefined();
    expect((await mailboxChoices(db, seeded.actor, null)).chosen).toBeUndefined();
  });
});
