import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { listen } from "@/lib/db/notify";
import { committedRemoteAccess, loadRemoteAccess, REMOTE_ACCESS_CHANNEL, refreshRemoteAccess, remoteAccess } from "@/lib/settings/remote-access";
import { saveRemoteAccess } from "@/lib/settings/save-remote-access";
import { seedOwner } from "@/lib/testing/seed";

describe("the remote access reader", () => {
  it("answers PUBLIC_URL until something is saved, then the saved value, at the transaction's commit and not before", async () => {
    const before = await loadRemoteAccess();
    expect(before.publicUrl).toBe(before.envPublicUrl);
    expect(before.saved.publicUrl).toBeNull();
    const owner = await seedOwner();
    const db = await getDb();
    // The commit's NOTIFY makes every instance, this one too, read the row again. It is awaited below, so that it
    // cannot arrive during the next test's read and apply a read that started after that test's commit.
    let told = () => {};
    const notified = new Promise<void>((r) => (told = r));
    const stop = await listen(REMOTE_ACCESS_CHANNEL, () => told());
    await db.transaction(async (tx) => {
      await saveRemoteAccess(tx, { ownerId: owner.id, public_url: "https://in-tx.example", allowed_origins: [] });
      // Not committed: this instance still answers the old value.
      expect(remoteAccess().publicUrl).toBe(before.envPublicUrl);
    });
    expect(remoteAccess().publicUrl).toBe("https://in-tx.example");
    await notified;
    stop();
    await expect(
      db.transaction(async (tx) => {
        await saveRemoteAccess(tx, { ownerId: owner.id, public_url: "https://rolled-back.example", allowed_origins: [] });
        throw new Error("rollback");
      }),
    ).rejects.toThrow("rollback");
    expect(remoteAccess().publicUrl).toBe("https://in-tx.example");
    await refreshRemoteAccess();
    expect(remoteAccess().publicUrl).toBe("https://in-tx.example");
  });

  it("drops a read that started before a commit this instance made, rather than going back to what it read", async () => {
    const reading = refreshRemoteAccess();
    committedRemoteAccess({ publicUrl: "https://newer.example", allowedOrigins: ["https://a.example"], updatedAt: new Date() });
    await reading;
    const access = remoteAccess();
    expect(access.publicUrl).toBe("https://newer.example");
    expect(access.extraOrigins.has("https://a.example")).toBe(true);
    // A read asked for afterwards is applied: the row says in-tx.example.
    await refreshRemoteAccess();
    expect(remoteAccess().publicUrl).toBe("https://in-tx.example");
  });
});
