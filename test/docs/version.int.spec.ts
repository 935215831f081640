import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAsyncApiDocument } from '../../apps/api/src/docs/asyncapi';
import { buildOpenApiDocument } from '../../apps/api/src/docs/openapi';

// The service has one version, package.json's: the API documents carry it, CHANGELOG.md has a
// section for it (Keep a Changelog: an Unreleased section on top, then releases newest first).
const ROOT = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
};

describe('version and license', () => {
  it('the API documents carry package.json version', () => {
    expect((buildOpenApiDocument().info as { version: string }).version).toBe(pkg.version);
    expect((buildAsyncApiDocument().info as { version: string }).version).toBe(pkg.version);
  });

  it('CHANGELOG.md is in Keep a Changelog form with a section for that version', () => {
    const log = readFileSync(resolve(ROOT, 'CHANGELOG.md'), 'utf8');
    const sections = [...log.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => m[1]);
    expect(sections[0]).toBe('Unreleased');
    expect(sections).toContain(pkg.version);
    for (const m of log.matchAll(/^### (.+)$/gm))
      expect(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']).toContain(m[1]);
  });

  it('LICENSE is the license package.json names', () => {
    expect(pkg.license).toBe('Apache-2.0');
    expect(readFileSync(resolve(ROOT, 'LICENSE'), 'utf8')).toMatch(
      /Apache License\s+Version 2\.0, January 2004/,
    );
  });
});
