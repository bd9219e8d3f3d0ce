import { and, eq, isNull, type SQL } from "drizzle-orm";
import { mailListEntries } from "@/lib/db/schema/mail";

export type ListDirection = "receive" | "send" | "reply";
export type ListType = "allow" | "block";

/** One list: a project's, for one inbox or (mailboxId null) global, in one direction, of one type. */
export interface ListRef {
  projectId: string;
  mailboxId: string | null;
  direction: ListDirection;
  type: ListType;
}

/** The WHERE of one list; every list statement starts from it, so none forgets the project or the scope. */
export function inList(list: ListRef): SQL {
  return and(
    eq(mailListEntries.projectId, list.projectId),
    list.mailboxId === null ? isNull(mailListEntries.mailboxId) : eq(mailListEntries.mailboxId, list.mailboxId),
    eq(mailListEntries.direction, list.direction),
    eq(mailListEntries.type, list.type),
  ) as SQL;
}
