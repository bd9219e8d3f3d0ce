/** A Gmail reply as it arrives: the answer, a signature line, the attribution and the quoted history. */
export const gmailText = [
  "Thursday at 2pm works for me.",
  "",
  "Sent from my iPhone",
  "",
  "On Tue, Dec 1, 2026 at 10:00 AM Alice Example <alice@sender.example> wrote:",
  "> Can we meet this week?",
  "> Thanks, Alice",
].join("\n");
export const gmailHtml =
  '<div dir="ltr">Thursday at <b>2pm</b> works for me.</div><br><div class="gmail_quote gmail_quote_container">' +
  '<div dir="ltr" class="gmail_attr">On Tue, Dec 1, 2026 at 10:00 AM Alice &lt;alice@sender.example&gt; wrote:<br></div>' +
  '<blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">Can we meet this week?</blockquote></div>';
/** Outlook on the web: the answer, then #appendonsend, an <hr> and #divRplyFwdMsg with the old message. */
export const outlookHtml =
  '<html><head><style>p { margin: 0 } a > b { color: red }</style></head><body><div style="font-family: Calibri">' +
  "<p>Yes, send the contract &amp; the invoice.</p><p title='say \"hi\"'>Regards, Bob</p></div>" +
  '<div id="appendonsend"></div><hr style="display:inline-block;width:98%" tabindex="-1">' +
  '<div id="divRplyFwdMsg" dir="ltr"><b>From:</b> Alice<br><b>Sent:</b> Tuesday</div><div>Old message with a secret</div></body></html>';
