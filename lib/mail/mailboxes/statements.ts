import { getTableColumns } from "drizzle-orm";
import { mailboxes, type Mailbox } from "@/lib/db/schema/mail";
import { columnList, statement } from "@/lib/db/statement";

/* The mailbox lookups every mailbox tool starts with (lib/db/statement.ts): one per call, so written once as text. */

const MAILBOX = columnList(getTableColumns(mailboxes));

export const liveMailboxById = statement<Mailbox, [projectId: string, id: string]>(
  `select ${MAILBOX} from mailboxes where project_id = $1 and id = $2 and deleted_at is null limit 1`,
);

/** `address` is stored in lower case; the caller's may be in any case. */
export const liveMailboxByAddress = statement<Mailbox, [projectId: string, address: string]>(
  `select ${MAILBOX} from mailboxes where project_id = $1 and address = lower($2) and deleted_at is null limit 1`,
);
