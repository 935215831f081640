import {
  getMetadataStorage,
  registerDecorator,
  type ValidationError,
  type ValidationOptions,
} from 'class-validator';
import { balancesProblem } from './balances';
import type { RouteMode } from './defaults';

/*
 * The decorators the route-parameter DTO (route-params-dto.ts) adds to class-validator's own, and
 * the readers that hand what it declares to the scanners (values.ts), the parser (parse.ts) and
 * the documents (openapi.ts). Rules are class-validator constraints wherever one can say them;
 * what class-validator has no notion of (how a value is written, the documents' words, rules that
 * tie two parameters together) is kept here, beside the class, keyed by it.
 */

/**
 * How a parameter is written in a query string or a JSON body: what the scanners decode into the
 * value the rules then check, and which text forms the documents show. A flag is enabled (or
 * disabled) only by the exact word that flips its documented default (parsing rules 1-2).
 */
export type ParamForm =
  'asset' | 'number' | 'epochMs' | 'enum' | 'flag' | 'assetList' | 'venueList' | 'balances';

/** The documents' words for a parameter; `default` is the spec's, from ROUTE_DEFAULTS. */
export interface ParamDoc {
  readonly description: string;
  readonly default?: unknown;
  readonly example?: unknown;
}

export interface ParamDeclaration {
  readonly name: string;
  readonly form: ParamForm;
  readonly doc: ParamDoc;
}

/** Every entry point; a parameter is accepted by all unless it says otherwise (AcceptedIn). */
export const ROUTE_MODES: readonly RouteMode[] = ['rest', 'stream', 'schedule'];

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- decorators key by the class itself
type Target = Function;
const PARAMS = new Map<Target, ParamDeclaration[]>();
const REQUEST_RULES = new Map<Target, RequestRule[]>();

/** Declare a property a route parameter: its written form and its documentation. */
export function Param(form: ParamForm, doc: ParamDoc): PropertyDecorator {
  return (target, key) => {
    const list = PARAMS.get(target.constructor) ?? [];
    // Property decorators run in declaration order: the list keeps the spec's parameter order.
    list.push({ name: String(key), form, doc });
    PARAMS.set(target.constructor, list);
  };
}

/** The parameters `cls` declares, in declaration order. */
export function declaredParams(cls: Target): readonly ParamDeclaration[] {
  return PARAMS.get(cls) ?? [];
}

/**
 * Only these entry points take the parameter; elsewhere supplying it is the error `message`. A
 * class-validator constraint in the validation groups (entry points) that refuse the parameter,
 * so it runs only there, and only when the parameter was supplied.
 */
export function AcceptedIn(modes: readonly RouteMode[], message: string): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: ACCEPTED_IN,
      target: target.constructor,
      propertyName: String(key),
      constraints: [modes],
      options: { groups: ROUTE_MODES.filter((m) => !modes.includes(m)), message },
      validator: { validate: () => false },
    });
}
export const ACCEPTED_IN = 'acceptedIn';

/** The entry points that take parameter `name` of `cls`. */
export function acceptedModes(cls: Target, name: string): readonly RouteMode[] {
  const m = metadataOf(cls, name).find((x) => x.name === ACCEPTED_IN);
  return m === undefined ? ROUTE_MODES : (m.constraints[0] as readonly RouteMode[]);
}

/** A normalised Balances value ({default, perVenue} holdings, docs/semantics.md). */
export function IsBalances(options: ValidationOptions): PropertyDecorator {
  return (target, key) =>
    registerDecorator({
      name: 'isBalances',
      target: target.constructor,
      propertyName: String(key),
      options,
      validator: { validate: (value: unknown) => balancesProblem(value) === null },
    });
}

/** A rule that ties two parameters together; checked once every parameter is valid on its own. */
export type RequestRule =
  | { readonly kind: 'exactlyOne'; readonly names: readonly [string, string]; readonly message: string }
  | {
      readonly kind: 'distinct';
      readonly names: readonly [string, string];
      readonly message: (value: unknown) => string;
    };

/** Exactly one of parameters `a` and `b` is supplied. */
export function ExactlyOneOf(a: string, b: string, message: string): ClassDecorator {
  return (cls) => addRule(cls, { kind: 'exactlyOne', names: [a, b], message });
}

/** Parameters `a` and `b` differ (as normalised). */
export function Distinct(a: string, b: string, message: (value: unknown) => string): ClassDecorator {
  return (cls) => addRule(cls, { kind: 'distinct', names: [a, b], message });
}

function addRule(cls: Target, rule: RequestRule): void {
  // Class decorators apply from the bottom up: unshift keeps the rules in the order written.
  REQUEST_RULES.set(cls, [rule, ...(REQUEST_RULES.get(cls) ?? [])]);
}

/** The first request rule `values` break, as its message, or null. */
export function brokenRequestRule(cls: Target, values: Readonly<Record<string, unknown>>): string | null {
  for (const rule of REQUEST_RULES.get(cls) ?? []) {
    const [a, b] = rule.names;
    if (rule.kind === 'exactlyOne' && (values[a] === undefined) === (values[b] === undefined))
      return rule.message;
    if (rule.kind === 'distinct' && values[a] === values[b]) return rule.message(values[a]);
  }
  return null;
}

/** The request rules of `cls`, for the documents. */
export function requestRules(cls: Target): readonly RequestRule[] {
  return REQUEST_RULES.get(cls) ?? [];
}

/** A number parameter's range, as its class-validator constraints (IsInt, Min, IsPositive, Max) state it. */
export interface NumberRange {
  readonly integer: boolean;
  readonly min: number;
  /** min itself is refused (IsPositive: > 0). */
  readonly exclusive: boolean;
  readonly max?: number;
}

const RANGES = new Map<string, NumberRange>();

/** The range of number parameter `name` of `cls`, read from its constraints once. */
export function numberRange(cls: Target, name: string): NumberRange {
  const key = `${cls.name}.${name}`;
  let range = RANGES.get(key);
  if (range === undefined) {
    const metas = metadataOf(cls, name);
    const arg = (n: string): number | undefined => metas.find((m) => m.name === n)?.constraints[0] as number;
    // The tighter lower bound of IsPositive (> 0) and Min (>= n).
    const min = arg('min');
    const positive = metas.some((m) => m.name === 'isPositive') && (min === undefined || min <= 0);
    const max = arg('max');
    range = {
      integer: metas.some((m) => m.name === 'isInt'),
      min: positive ? 0 : (min ?? -Infinity),
      exclusive: positive,
      ...(max === undefined ? {} : { max }),
    };
    RANGES.set(key, range);
  }
  return range;
}

/** The words of a range in messages and descriptions: "> 0", ">= 1", "from 0 to 10000". */
export function rangeText(r: NumberRange): string {
  if (r.max !== undefined) return `from ${r.min} to ${r.max}`;
  return r.exclusive ? `> ${r.min}` : `>= ${r.min}`;
}

function metadataOf(cls: Target, name: string) {
  return getMetadataStorage()
    .getTargetValidationMetadatas(cls, '', true, false)
    .filter((m) => m.propertyName === name);
}

/**
 * The message of the rule a property breaks first as written. class-validator records a
 * property's failures in the order its decorators were applied, which is from the property
 * outwards (bottom up), so the last recorded is the one written first: the type check a DTO
 * writes above its range or pattern wins, as a reader expects.
 */
export function firstBroken(error: ValidationError | undefined): string | undefined {
  const c = error?.constraints;
  if (c === undefined) return undefined;
  let last: string | undefined;
  for (const k in c) last = c[k];
  return last;
}
