import { EventEmitter } from 'node:events';
import * as ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { attribute, EscapeGuard, type EscapeTarget } from './escape-guard';

function target(exchangeId: string, sourceFiles: string[], urls: string[] = []) {
  const contained: unknown[] = [];
  const t: EscapeTarget & { contained: unknown[] } = {
    exchangeId,
    sourceFiles,
    urls: () => urls,
    contain: (e) => contained.push(e),
    contained,
  };
  return t;
}

/** An error whose stack has a frame in the given ccxt source file (as Node prints it). */
function fromCcxt(file: string, message = 'boom'): Error {
  const e = new Error(message);
  e.stack = `Error: ${message}\n    at handleMessage (/app/node_modules/ccxt/dist/cjs/src/pro/${file}.js:123:45)\n    at Client.onMessage (/app/node_modules/ccxt/dist/cjs/src/base/ws/Client.js:10:1)`;
  return e;
}

describe('attribute', () => {
  const bitfinex = target('bitfinex', ['bitfinex'], ['ws://127.0.0.1:4000/ws/2', 'https://api.bitfinex.com']);
  const bybit = target('bybit', ['bybit']);
  const bybiteu = target('bybiteu', ['bybiteu', 'bybit']);
  const all = [bitfinex, bybit, bybiteu];

  it('blames the venue whose URL the error names', () => {
    const e = new ccxt.RequestTimeout(
      'Connection to ws://127.0.0.1:4000/ws/2 failed due to a connection timeout',
    );
    expect(attribute(e, all)).toEqual([bitfinex]);
  });

  it("blames the venue named by ccxt's id prefix", () => {
    expect(
      attribute(new ccxt.ExchangeError('bybiteu orderbook data checksum validation failed'), all),
    ).toEqual([bybiteu]);
  });

  it('blames by stack frame, the most derived class first, an ancestor file every venue built on it', () => {
    expect(attribute(fromCcxt('bybiteu'), all)).toEqual([bybiteu]);
    expect(attribute(fromCcxt('bybit'), [bitfinex, bybiteu])).toEqual([bybiteu]);
    expect(attribute(fromCcxt('bybit'), all)).toEqual([bybit]);
    const esm = new Error('x');
    esm.stack = 'Error: x\n    at file:///app/node_modules/ccxt/js/src/pro/bitfinex.js:1:1';
    expect(attribute(esm, all)).toEqual([bitfinex]);
  });

  it('blames nobody without evidence (ccxt base code, or no ccxt at all)', () => {
    expect(attribute(new Error('WebSocket is not open: readyState 3 (CLOSED)'), all)).toEqual([]);
    expect(attribute(fromCcxt('kraken'), all)).toEqual([]);
    expect(attribute('a string', all)).toEqual([]);
    expect(attribute(undefined, all)).toEqual([]);
  });
});

describe('EscapeGuard', () => {
  it('contains what it can attribute, ends the process for the rest, and listens only while venues run', () => {
    const proc = new EventEmitter() as unknown as NodeJS.Process;
    const fatal: unknown[] = [];
    const guard = new EscapeGuard(proc, (e) => fatal.push(e));
    const bitfinex = target('bitfinex', ['bitfinex']);
    expect(proc.listenerCount('unhandledRejection')).toBe(0);
    const unregister = guard.register(bitfinex);
    expect(proc.listenerCount('unhandledRejection')).toBe(1);
    expect(proc.listenerCount('uncaughtException')).toBe(1);
    const ours = fromCcxt('bitfinex');
    proc.emit('unhandledRejection', ours, Promise.resolve());
    expect(bitfinex.contained).toEqual([ours]);
    const bug = new TypeError('a real bug');
    proc.emit('uncaughtException', bug);
    expect(fatal).toEqual([bug]);
    unregister();
    expect(proc.listenerCount('unhandledRejection')).toBe(0);
    expect(proc.listenerCount('uncaughtException')).toBe(0);
  });

  it('leaves errors it cannot attribute to another listener when there is one', () => {
    const proc = new EventEmitter() as unknown as NodeJS.Process;
    const fatal: unknown[] = [];
    const guard = new EscapeGuard(proc, (e) => fatal.push(e));
    proc.on('unhandledRejection', () => undefined);
    guard.register(target('okx', ['okx']));
    proc.emit('unhandledRejection', new Error('not a venue'), Promise.resolve());
    expect(fatal).toEqual([]);
    expect(guard.unattributed).toBe(1);
  });
});
