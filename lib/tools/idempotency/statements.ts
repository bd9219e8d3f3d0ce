import { statement } from "@/lib/db/statement";

/**
 * Claims a key for this call, or finds who has it. The INSERT waits on a concurrent call's uncommitted row (unique
 * index), so a retry racing the first call sees its committed result, never a half-done one. An expired key is
 * taken over in place.
 */
export const claimKey = statement<{ claimed: boolean }, [projectId: string, principal: string, key: string, hash: string, tool: string, keyId: string | null]>(
  `insert into idempotency_keys (project_id, principal, key, request_hash, tool, key_id) values ($1, $2, $3, $4, $5, $6)
   on conflict (project_id, principal, key) do update
     set request_hash = excluded.request_hash, tool = excluded.tool, key_id = excluded.key_id, status_code = 200,
         response_text = '', subject = null, created_at = now(), expires_at = now() + interval '24 hours'
     where idempotency_keys.expires_at <= now()
   returning true as claimed`,
);

export const storedKey = statement<
  { requestHash: string; tool: string; statusCode: number; responseText: string; subject: string | null },
  [projectId: string, principal: string, key: string]
>(`select request_hash, tool, status_code, response_text, subject from idempotency_keys where project_id = $1 and principal = $2 and key = $3`);

/** The call's answer, kept 24 hours from now (its completion). */
export const completeKey = statement<never, [projectId: string, principal: string, key: string, status: number, text: string, subject: string | null]>(
  `update idempotency_keys set status_code = $4, response_text = $5, subject = $6, expires_at = now() + interval '24 hours'
   where project_id = $1 and principal = $2 and key = $3`,
);

/** Keys are kept until they expire (24 hours after their call); an hour's grace keeps a late retry's claim simple. */
export const purgeExpiredKeys = statement<never, []>(`delete from idempotency_keys where expires_at < now() - interval '1 hour'`);
