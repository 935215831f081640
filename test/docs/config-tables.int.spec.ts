import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { README_PATH, withConfigTables } from '../../scripts/config-doc/readme-tables';

const ROOT = resolve(__dirname, '../..');

describe("the README's configuration tables", () => {
  it('are what libs/config/src/keys makes of them (npm run docs:config rewrites them)', async () => {
    const readme = readFileSync(resolve(ROOT, README_PATH), 'utf8');
    expect(readme, 'README.md drifted from libs/config: run npm run docs:config').toBe(
      await withConfigTables(readme, ROOT),
    );
  });

  it('name every key of the table, each flag and variable once', async () => {
    const readme = await withConfigTables(readFileSync(resolve(ROOT, README_PATH), 'utf8'), ROOT);
    const { CONFIG_KEYS, FLAGS_OF } = await import('@app/config');
    for (const key of CONFIG_KEYS) {
      if (key.env !== undefined)
        expect(readme.match(new RegExp(`^\\| \`${key.env.name}\` `, 'gm')), key.env.name).toHaveLength(1);
    }
    for (const flag of new Set([...FLAGS_OF.start, ...FLAGS_OF.api, ...FLAGS_OF.ingestor]))
      expect(readme.match(new RegExp(`^\\| \`--${flag}[ \`]`, 'gm')), flag).toHaveLength(1);
  });
});
