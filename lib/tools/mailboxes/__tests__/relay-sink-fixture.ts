import { afterAll, beforeAll } from "vitest";
import type { Mailbox } from "@/lib/db/schema/mail";
import { resetEnvCache } from "@/lib/env";
import { startSink } from "@/lib/mail/__tests__/helpers";
import { closeRelayTransports } from "@/lib/mail/outbound/relay-transport";
import { seedMailbox } from "@/lib/testing/mail-fixture";
import { projectWithKey } from "./inbox-test-helpers";

export interface RelaySinkFixture {
  /** The relay every outside recipient goes to: a real smtp-server recording what arrives. */
  sink: Awaited<ReturnType<typeof startSink>>;
  p: Awaited<ReturnType<typeof projectWithKey>>;
  box: Mailbox;
}

/**
 * A test file's project (a key over both transports) and mailbox whose outside mail goes to a relay sink, set up
 * before its tests and taken down after them. The fields are filled in by beforeAll.
 */
export function relaySinkFixture(projectName: string): RelaySinkFixture {
  const f = {} as RelaySinkFixture;
  beforeAll(async () => {
    f.sink = await startSink();
    process.env.SMTP_RELAY_URL = f.sink.url;
    resetEnvCache();
    f.p = await projectWithKey(projectName);
    f.box = await seedMailbox(f.p.project.id);
  });
  afterAll(async () => {
    closeRelayTransports();
    await f.sink?.close();
    delete process.env.SMTP_RELAY_URL;
    resetEnvCache();
  });
  return f;
}
