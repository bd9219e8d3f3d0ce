import { statement } from "@/lib/db/statement";

/**
 * Claims a key for this call, or finds who has it. The INSERT waits on a concurrent call's uncommitted row (unique
 * index), so a retry racing the first call sees its committed result, never a half-done one. An expired key is
 * taken over in place.
 */
export const claimKey = statement<{ claimed: boolean }, [string, string, string, string, string | null]>(
  `insert into idempotency_keys (project_id, key, request_hash, tool, key_id) values ($1, $2, $3, $4, $5)
   on conflict (project_id, key) do update
     set request_hash = excluded.request_hash, tool = excluded.tool, key_id = excluded.key_id, status_code = 200,
         response_text = '', created_at = now(), expires_at = now() + interval '24 hours'
     where idempotency_keys.expires_at <= now()
   returning true as claimed`,
);

export const storedKey = statement<{ requestHash: string; tool: string; statusCode: number; responseText: string }, [string, string]>(
  `select request_hash, tool, status_code, response_text from idempotency_keys where project_id = $1 and key = $2`,
);

/** The call's answer, kept 24 hours from now (its completion). */
export const completeKey = statement<never, [string, string, number, string]>(
  `update idempotency_keys set status_code = $3, response_text = $4, expires_at = now() + interval '24 hours'
   where project_id = $1 and key = $2`,
);

/** Keys are kept until they expire (24 hours after their call); an hour's grace keeps a late retry's claim simple. */
export const purgeExpiredKeys = statement<never, []>(`delete from idempotency_keys where expires_at < now() - interval '1 hour'`);
