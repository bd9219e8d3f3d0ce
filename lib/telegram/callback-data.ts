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

const promptTexts: Record<PromptMode, string> = {
  comment: "💬 Reply to this message with your comment; then press a button on the request.",
  context: "❓ Reply to this message with what you need to know to decide.",
  answer: "✍️ Reply to this message with your answer.",
};

/** The whole text of a prompt: what to reply, then the marker naming the request. */
export const promptMessage = (mode: PromptMode, requestId: string) => `${promptTexts[mode]}\n[${mode} ${requestId}]`;

/**
 * The prompt a bot message is, or null. Only a message that is a prompt as a whole counts: the bot's request
 * messages carry summaries and details an agent wrote, which may quote a marker, and a reply to such a message
 * would otherwise comment on, answer or ask context of whichever request the agent named.
 */
export function parsePrompt(text: string | undefined): { mode: PromptMode; requestId: string } | null {
  const m = /\n\[(comment|context|answer) (req_[A-Za-z0-9]{1,40})\]$/.exec(text ?? "");
  if (!m) return null;
  const prompt = { mode: m[1] as PromptMode, requestId: m[2] };
  return text === promptMessage(prompt.mode, prompt.requestId) ? prompt : null;
}
