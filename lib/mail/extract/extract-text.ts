import EmailReplyParser from "email-reply-parser";
import { randomBase62 } from "@/lib/ids";

/**
 * Lines handed to email-reply-parser. It tests some 40 signature patterns against every line (about 10–30 µs a
 * line: 4–12 ms for a 400-line message, more than parsing and authenticating it), and a reply's own text, its
 * signature and the quote's "On … wrote:" header come first. A longer text is judged by its head: if the head
 * holds a quote or a signature, what follows it is history too; if not, the text is kept whole.
 */
const HEAD_LINES = 60;
/**
 * Characters of head, and of one line, the parser is given. Its quote-header patterns backtrack polynomially in a
 * line's length (`.+\son.*at.*wrote:`; 1 MB of "On " on one line took four minutes, 25 MB would never end), and
 * some across lines (`Op [\s\S]+? schreef [\s\S]+:`). A longer line is no quote header or signature: the parser
 * sees a short stand-in for it, and the line is put back into what it keeps. Within these bounds the costliest
 * input found takes tens of milliseconds; 60 ordinary lines are about 4,000 characters.
 */
const HEAD_CHARS = 6000;
const LINE_CHARS = 1000;
/** A quoted line as email-reply-parser sees one: `>` first. */
const QUOTED = /^>/;
/**
 * Outlook's plain-text quote in the languages email-reply-parser does not know: the "-----Original Message-----"
 * line, or (newer Outlook) the quoted message's From line followed by its Sent line. What follows either is history.
 */
const SEPARATOR =
  /^\s*-{3,}\s*(?:mensaje original|mensagem original|messaggio originale|oorspronkelijk bericht|ursprungligt meddelande|oprindelig meddelelse|opprinnelig melding|alkuperäinen viesti|původní zpráva|wiadomość oryginalna|eredeti üzenet|orijinal mesaj|αρχικό μήνυμα|исходное сообщение|הודעה מקורית|原始邮件|原始郵件|元のメッセージ|원본 메시지)\s*-{3,}\s*$/iu;
const FROM_LINE = /^\s*(?:de|da|van|från|fra|od|lähettäjä|feladó|kimden|από|от|מאת|发件人|寄件者|보낸 사람)\s*[:：]/iu;
const SENT_LINE =
  /^\s*(?:enviado(?: el)?|enviada|data|inviato|verzonden|skickat|sendt|lähetetty|odesláno|wysłano|elküldve|gönderildi|στάλθηκε|отправлено|נשלח|发送时间|傳送時間|보낸 날짜)\s*[:：]/iu;

/**
 * The reply without its quoted history and signature (email-reply-parser 2.3.7: "On … wrote:" blocks, `>` quotes,
 * "Sent from my iPhone"). Automatic mail (bounces, auto-replies) is kept whole: its "quote" is the point of it.
 * A reply that is nothing but quote extracts to nothing; the whole text is kept then, so no mail reads as empty.
 */
export function extractText(text: string | null, opts: { keepWhole: boolean }): string | null {
  if (text === null || opts.keepWhole) return text;
  const { lines, more, standIns } = headLines(text);
  // The parser hides quoted lines: a localised Outlook quote it cannot recognise is handed to it as one.
  const quoteAt = lines.findIndex((l, i) => SEPARATOR.test(l) || (FROM_LINE.test(l) && SENT_LINE.test(lines[i + 1] ?? "")));
  if (quoteAt > 0) lines.splice(quoteAt, lines.length, ">");
  const email = new EmailReplyParser().read(lines.join("\n"));
  const reply = email.getVisibleText().trim();
  if (reply === "") return text;
  // A head with nothing hidden in it, and more below: the cut is not ours to guess. Asked of the fragments, not by
  // comparing texts: the parser drops every line's trailing spaces, so a head of such lines never compared equal
  // and the text was cut after its 60th line.
  if (more && !email.getFragments().some((f) => f.isHidden() && !f.isEmpty())) return text;
  return standIns.reduce((out, s) => out.replaceAll(s.mark, () => s.line), reply).trim();
}

/**
 * The head: at most HEAD_LINES lines and HEAD_CHARS characters, each run of quoted lines as one `>` line (the
 * parser hides quoted lines whatever they say, so this changes no answer, only the work: a 20 KB quote is 400
 * lines) and each line over LINE_CHARS as a stand-in that no sender can write (a random mark), read no further
 * than needed.
 */
function headLines(text: string): { lines: string[]; more: boolean; standIns: Array<{ mark: string; line: string }> } {
  const lines: string[] = [];
  const standIns: Array<{ mark: string; line: string }> = [];
  let nonce: string | null = null;
  let chars = 0;
  let start = 0;
  while (start <= text.length) {
    const nl = text.indexOf("\n", start);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
    const quoted = QUOTED.test(line);
    if (quoted && lines[lines.length - 1] === ">") continue;
    const long = !quoted && line.length > LINE_CHARS;
    const given = quoted ? ">" : long ? `\uE000${(nonce ??= randomBase62(12))}${standIns.length}\uE000` : line;
    if (lines.length === HEAD_LINES || chars + given.length > HEAD_CHARS) return { lines, more: true, standIns };
    // As the parser gives back every line but a signature: without its trailing whitespace.
    if (long) standIns.push({ mark: given, line: line.trimEnd() });
    lines.push(given);
    chars += given.length + 1;
  }
  return { lines, more: false, standIns };
}
