/**
 * Inline button payloads (Telegram allows 64 bytes): `<verb>:<request id>[:<option index>]`.
 * a approve · d deny · o option · c comment · x needs context · t answer in text.
 */
export type ButtonVerb = "a" | "d" | "o" | "c" | "x" | "t";

export const buttonData = (verb: ButtonVerb, requestId: string, option?: number) =>
  option === undefined ? `${verb}:${requestId}` : `${verb}:${requestId}:${option}`;

export function parseButtonData(data: string): { verb: ButtonVerb; requestId: string; option: number | null } | null {
  const m = /^([adocxt]):(req_[A-Za-z0-9]{1,40})(?::([0-4]))?$/.exec(data);
  if (!m) return null;
  return { verb: m[1] as ButtonVerb, requestId: m[2], option: m[3] === undefined ? null : Number(m[3]) };
}

/** Replies to these prompts carry a comment, a missing-context note or an answer; the prompt names the request. */
export type PromptMode = "comment" | "context" | "answer";
export const promptMarker = (mode: PromptMode, requestId: string) => `[${mode} ${requestId}]`;
export function parsePromptMarker(text: string | undefined): { mode: PromptMode; requestId: string } | null {
  const m = /\[(comment|context|answer) (req_[A-Za-z0-9]{1,40})\]/.exec(text ?? "");
  return m ? { mode: m[1] as PromptMode, requestId: m[2] } : null;
}
