import type { AppError } from "@/lib/errors";

export const batchActions = ["get", "label", "trash", "delete"] as const;
export type BatchAction = (typeof batchActions)[number];

/** One id's outcome: a batch answers per item and one item's failure never undoes another's success. */
export interface BatchItem<V> {
  id: string;
  ok: boolean;
  error?: { code: string; message: string };
  /** `get`: the item itself. */
  item?: V;
  /** `label` and `trash`: the labels now set. */
  labels?: string[];
  /** `delete`: false when it was already gone. */
  deleted?: boolean;
}

export const failed = <V>(id: string, err: AppError): BatchItem<V> => ({ id, ok: false, error: { code: err.code, message: err.message } });

/** The ids in the caller's order, each once: a repeated id would otherwise be labelled or deleted twice. */
export const uniqueIds = (ids: readonly string[]) => [...new Set(ids)];
