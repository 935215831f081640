/**
 * Text placed in the HTML pages the apps build (the API's reference and explorer pages, the
 * backtest report): escaped for where it goes, so no value can open or close an element.
 */

/** Text for an element's content or a double-quoted attribute: & < > " escaped. */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** JSON inside a <script> element: every '<' escaped, so no string in it can end the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Script source inlined in a <script> element: each "</script" (any case), which would end the
 * element early, becomes "<\/script".
 */
export function inlineScript(source: string): string {
  return source.replace(/<\/script/gi, '<\\/script');
}
