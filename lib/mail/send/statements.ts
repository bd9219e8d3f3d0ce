import { statement } from "@/lib/db/statement";

/**
 * The send-list entries (design L1) that match any of the candidates (recipients and their parent domains), the
 * mailbox's own and the project's, plus whether each scope has an allow list at all: one round trip per send.
 */
export const sendListContext = statement<
  { matches: Array<{ own: boolean; type: "allow" | "block"; entry: string }> | null; ownAllow: boolean; projectAllow: boolean },
  [projectId: string, mailboxId: string, candidates: string[]]
>(`
  select
    (select json_agg(json_build_object('own', e.mailbox_id is not null, 'type', e.type, 'entry', e.entry))
       from mail_list_entries e
      where e.project_id = $1 and e.direction = 'send' and (e.mailbox_id = $2 or e.mailbox_id is null) and e.entry = any($3::text[])) as matches,
    exists (select 1 from mail_list_entries where project_id = $1 and mailbox_id = $2 and direction = 'send' and type = 'allow') as own_allow,
    exists (select 1 from mail_list_entries where project_id = $1 and mailbox_id is null and direction = 'send' and type = 'allow') as project_allow
`);
