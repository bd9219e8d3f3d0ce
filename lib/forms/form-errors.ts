/** What a failed owner action hands a form (ActionResult's failure): one line, and per-field plain words. */
export type ActionFailure = { error: string; fieldErrors?: Record<string, string> };

/** A form's errors: one per field it shows, and `form` for what names no field of it. */
export type FormErrors<F extends string> = Partial<Record<F | "form", string>>;

/**
 * An action's failure as a form shows it: each message on the field it names, anything else in one line below the
 * form. `fields` lists the form's fields, or maps the server's names onto them (`event_types` → `eventTypes`); a
 * domain function's path (`request.inbox_ids.0`) is read by its first name after `request.`.
 */
export function formErrors<F extends string>(res: ActionFailure, fields: readonly F[] | Readonly<Record<string, F>>): FormErrors<F> {
  const names: Readonly<Record<string, F>> = Array.isArray(fields) ? Object.fromEntries(fields.map((f) => [f, f])) : (fields as Record<string, F>);
  const out: FormErrors<F> = {};
  const unplaced: string[] = [];
  for (const [field, message] of Object.entries(res.fieldErrors ?? {})) {
    const path = field.replace(/^request\./, "");
    const name = Object.hasOwn(names, path) ? names[path] : Object.hasOwn(names, path.split(".")[0]) ? names[path.split(".")[0]] : undefined;
    if (name) out[name] ??= message;
    else unplaced.push(message);
  }
  // Nothing on a field: the action's own line (a refusal that names no field, e.g. no relay configured).
  if (Object.keys(out).length === 0) out.form = res.error;
  else if (unplaced.length > 0) out.form = unplaced.join(" ");
  return out;
}
