import { getMetadataStorage } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { routeRequest } from './defaults';
import { routeBodySchema, routeQueryParameters } from './openapi';
import { DECLARED_PARAMS, ROUTE_PARAM_NAMES, paramRange } from './params';
import { parseRouteBody } from './body';
import { parseRouteQuery } from './query';
import { RouteParamsDto } from './route-params-dto';
import { parseScheduleEntry } from './schedule';
import { validateStoredRequest } from './validate';

// What the DTO's decorators decide, seen through the parsers and the documents that read them.

describe('RouteParamsDto: the one declaration of the route parameters', () => {
  it('declares every parameter it validates, in the spec order, and nothing else', () => {
    const validated = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(RouteParamsDto, '', true, false)
        .map((m) => m.propertyName),
    );
    expect([...validated].sort()).toEqual([...ROUTE_PARAM_NAMES].sort());
    expect(ROUTE_PARAM_NAMES.slice(0, 4)).toEqual(['from', 'to', 'amountIn', 'amountOut']);
    expect(ROUTE_PARAM_NAMES.at(-1)).toBe('asOf');
  });

  it('reports a value of the wrong JSON type by its type, not by the rules written after it', () => {
    const base = { from: 'ETH', to: 'USDT' };
    expect(parseRouteBody({ ...base, amountIn: true })).toMatchObject({ error: 'amountIn must be a number' });
    expect(parseRouteBody({ ...base, amountIn: 1, maxVenues: [2] })).toMatchObject({
      error: 'maxVenues must be a number',
    });
    expect(parseRouteBody({ ...base, amountIn: 1, maxVenues: 1.5 })).toMatchObject({
      error: "maxVenues must be an integer >= 1, got '1.5'",
    });
    expect(parseRouteBody({ ...base, amountIn: 1, strategy: 3 })).toMatchObject({
      error: 'strategy must be a string',
    });
    // A list too long is refused for its length before any entry is read.
    const many = Array.from({ length: 17 }, () => 'ß').join(',');
    expect(parseRouteQuery(`from=ETH&to=USDT&amountIn=1&bridges=${many}`, 'rest')).toMatchObject({
      error: 'bridges has more than 16 entries',
    });
  });

  it('refuses a parameter an entry point does not take alone, whatever its value', () => {
    expect(parseRouteQuery('to=USDT&amountIn=-1&balances=garbage', 'stream')).toEqual({
      ok: false,
      error: 'balances is not available on the stream',
      status: 400,
    });
    expect(parseScheduleEntry({ from: 'ETH', to: 'USDT', sizes: [1], asOf: 'x' })).toMatchObject({
      ok: false,
      field: 'asOf',
    });
  });

  it('checks the rules that tie parameters together only once each parameter is valid', () => {
    expect(parseRouteQuery('from=eth&to=ETH&amountIn=1', 'rest')).toMatchObject({
      error: 'from and to must differ (both are ETH)',
    });
    expect(parseRouteQuery('from=eth&to=ETH&amountIn=1&amountOut=1', 'rest')).toMatchObject({
      error: 'exactly one of amountIn and amountOut must be supplied',
    });
    expect(parseRouteQuery('from=eth&to=ETH&maxVenues=0', 'rest')).toMatchObject({
      error: "maxVenues must be an integer >= 1, got '0'",
    });
  });

  it('holds stored requests to the same rules, caps aside', () => {
    const stored = routeRequest({ requestId: 'r', from: 'ETH', to: 'USDT', amount: 1 });
    expect(validateStoredRequest(stored)).toMatchObject({ ok: true });
    expect(validateStoredRequest({ ...stored, maxVenues: 0 })).toEqual({
      ok: false,
      field: 'request.maxVenues',
      error: 'is out of the range of maxVenues',
    });
    expect(validateStoredRequest({ ...stored, to: 'usdt' })).toMatchObject({
      field: 'request.to',
      error: 'must be an upper-case asset code',
    });
    expect(validateStoredRequest({ ...stored, exchanges: ['constructor'] })).toMatchObject({
      field: 'request.exchanges',
    });
    // 20 bridges: more than a request may carry, still a valid stored request.
    const bridges = Array.from({ length: 20 }, (_, i) => `A${i}`);
    expect(validateStoredRequest({ ...stored, bridges })).toMatchObject({ ok: true });
    expect(
      validateStoredRequest({ ...stored, balances: { default: {}, perVenue: { binance: { ETH: -1 } } } }),
    ).toEqual({
      ok: false,
      field: 'request.balances.perVenue.binance.ETH',
      error: 'must be a finite number >= 0',
    });
  });

  it('gives the documents the rules as declared: ranges, required, where each is accepted', () => {
    const rest = routeQueryParameters('rest');
    const stream = routeQueryParameters('stream');
    expect(rest.map((p) => p.name)).toEqual(ROUTE_PARAM_NAMES);
    expect(stream.map((p) => p.name)).toEqual(
      DECLARED_PARAMS.filter((p) => p.modes.includes('stream')).map((p) => p.name),
    );
    expect(stream.map((p) => p.name)).not.toContain('balances');
    expect(rest.filter((p) => p.required === true).map((p) => p.name)).toEqual(['from', 'to']);
    for (const p of DECLARED_PARAMS.filter((d) => d.form === 'number')) {
      const r = paramRange(p.name);
      const schema = rest.find((q) => q.name === p.name)!.schema as Record<string, unknown>;
      expect(schema.type).toBe(r.integer ? 'integer' : 'number');
      expect(schema[r.exclusive ? 'exclusiveMinimum' : 'minimum']).toBe(r.min);
      expect(schema.maximum).toBe(r.max);
    }
    const body = routeBodySchema();
    expect(body.oneOf).toEqual([
      { required: ['amountIn'], not: { required: ['amountOut'] } },
      { required: ['amountOut'], not: { required: ['amountIn'] } },
    ]);
    expect((body.properties as Record<string, { oneOf?: unknown[] }>).bridges?.oneOf?.[0]).toMatchObject({
      type: 'array',
      maxItems: 16,
    });
  });
});
