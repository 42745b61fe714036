/** The HTML every mail is written in: the account mails' and the mass mail's. */

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A mail's HTML document around `content` (already escaped). A long unbroken word (a URL, a pasted token)
 * wraps inside the column rather than widen the mail in clients that honour the page's width (content
 * review, finding 9).
 */
export function mailDocument(content: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1a1b1e;max-width:560px;margin:24px auto;padding:0 16px;overflow-wrap:anywhere;word-break:break-word">
${content}</body></html>`;
}

/** A small grey line at the foot of a mail ("Haversack", who sends it and why). */
export function mailFootnote(text: string): string {
  return `<p style="font-size:13px;color:#555">${escapeHtml(text)}</p>`;
}
