import { describe, expect, it } from 'vitest';
import { HTTP_LIMIT_DEFAULTS, SERVER_DEFAULTS, loadConfig } from '../index';
import { parseNumber } from '../parse-number';
import { keyName, SERVICE_APPS, type AppName } from './config-key';
import { CONFIG_KEYS, envOf, flagsOf } from './keys';

const APPS: readonly AppName[] = ['start', 'api', 'ingestor', 'replay', 'venues'];

describe('the configuration table', () => {
  it('names each key, variable and flag once, and gives each to a command', () => {
    const names = CONFIG_KEYS.map(keyName);
    expect(new Set(names).size).toBe(names.length);
    const flags = CONFIG_KEYS.flatMap((k) => (k.flag === undefined ? [] : [k.flag.name]));
    expect(new Set(flags).size).toBe(flags.length);
    for (const k of CONFIG_KEYS) {
      expect((k.env?.apps.length ?? 0) + (k.flag?.apps.length ?? 0), keyName(k)).toBeGreaterThan(0);
      expect(k.flag?.arg === '', keyName(k)).toBe(k.value.type === 'switch');
      // The README documents the service processes' flags; a tool's are in its own --help.
      if (k.flag?.apps.some((a) => (SERVICE_APPS as readonly string[]).includes(a)))
        expect(k.flag.doc ?? (k.env === undefined ? k.doc : undefined), keyName(k)).toBeTruthy();
    }
  });

  it('holds defaults of the type and within the bounds of their key', () => {
    for (const k of CONFIG_KEYS) {
      const name = keyName(k);
      const v = k.value;
      if (k.default === null) continue;
      if (v.type === 'int' || v.type === 'decimal') {
        expect(parseNumber(String(k.default), { integer: v.type === 'int', ...v }), name).toEqual({
          value: k.default,
        });
      } else if (v.type === 'text') {
        expect(typeof k.default, name).toBe('string');
        if (k.default !== '') expect(v.check?.(k.default as string) ?? [], name).toEqual([]);
      } else if (v.type === 'path') expect(typeof k.default, name).toBe('string');
      else expect(k.default, name).toBe(false);
    }
  });

  it('is what every command reads: each loads from defaults alone, reading all its keys', () => {
    for (const app of APPS) {
      const config = loadConfig(
        app,
        (SERVICE_APPS as readonly string[]).includes(app) ? [] : new Map(),
        {},
        '/',
      );
      expect(config.app).toBe(app);
      expect(Object.isFrozen(config)).toBe(true);
    }
    expect(envOf('venues').map(keyName)).toEqual(['VENUES_CONFIG']);
    expect(flagsOf('replay')).toEqual([
      'data-dir',
      'stale-book-ms',
      'staleness-penalty-bps',
      'default-taker-fee-rate',
    ]);
    const api = loadConfig('api', [], {}, '/');
    expect(SERVER_DEFAULTS).toEqual(api.server);
    expect(HTTP_LIMIT_DEFAULTS).toEqual(api.server.http);
  });
});
