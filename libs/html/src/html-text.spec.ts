import { describe, expect, it } from 'vitest';
import { escapeHtml, inlineScript, scriptJson } from './html-text';

describe('text for HTML pages', () => {
  it('escapes what could open an element or end an attribute, nothing else', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      `&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry's&lt;/a&gt;`,
    );
  });

  it('keeps JSON inside a script element from ending it, and the same value once parsed', () => {
    const value = { note: '</script><script>alert(1)</script>', n: 1 };
    const text = scriptJson(value);
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('breaks every "</script" of inlined source, in any case', () => {
    expect(inlineScript('a="</script>";b="</SCRIPT >"')).toBe('a="<\\/script>";b="<\\/script >"');
  });
});
